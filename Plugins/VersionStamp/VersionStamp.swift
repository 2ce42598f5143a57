import Foundation
import PackagePlugin

/// Fills in `TimelineVersion.string` before every build: runs `scripts/version-stamp.sh`, which reads the
/// top-level `VERSION` file (the one place the version is written) and adds the git commit when there is one.
@main
struct VersionStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let package = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
        return [
            .prebuildCommand(
                displayName: "Stamping the version from VERSION",
                executable: URL(filePath: "/bin/sh"),
                arguments: [package.appending(path: "scripts/version-stamp.sh").path(), package.path(), output.path()],
                outputFilesDirectory: output
            ),
        ]
    }
}
