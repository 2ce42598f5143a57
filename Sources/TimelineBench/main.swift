print("timeline bench")
