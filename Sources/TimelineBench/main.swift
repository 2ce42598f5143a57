print("timeline bench")
runStoreBench()
