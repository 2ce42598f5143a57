// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "timeline",
    platforms: [.macOS(.v15)],  // Synchronization (Mutex, Atomic)
    products: [
        .executable(name: "timeline", targets: ["timeline"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The config file (`~/.config/timeline/config.toml`).
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        // System libraries: a module map plus a shim.h with only what Swift cannot call directly.
        // Headers only: libcurl itself is opened at the first request (see shim.h).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CNCursesW", pkgConfig: "ncursesw", providers: [.apt(["libncurses-dev"])]),
        // Headers only: libcrypto itself is opened at the first digest (see shim.h).
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        // glibc's posix_spawn_file_actions_addclosefrom_np and pipe2 (hidden behind _GNU_SOURCE).
        .systemLibrary(name: "CProcessSpawn"),
        // glibc's mallopt (malloc.h is not in Swift's Glibc module).
        .systemLibrary(name: "CMalloc"),
        // glibc's pthread_setname_np / pthread_getname_np and memfd_create (hidden behind _GNU_SOURCE).
        .systemLibrary(name: "CGlibcGNU"),

        // The one strict JSON reader and JSON string writer (event payloads, SQS requests and answers).
        .target(name: "StrictJSON"),
        // Rules below the event model, which re-exports them: what is safe to show on a terminal (DisplayText,
        // TerminalSafety, column widths) and to connect to (NetworkAddress, PeerPolicy), strict timestamps,
        // command-line words.
        .target(name: "SharedRules"),
        .target(name: "TimelineCore", dependencies: ["StrictJSON", "SharedRules", "CGlibcGNU"]),
        .target(name: "SigV4", dependencies: ["COpenSSL"]),
        // How timeline starts other programs (credential helpers, notify commands): no shell, own group, default signals.
        .target(name: "ProcessLaunch", dependencies: ["CProcessSpawn"]),
        .target(name: "SQSClient", dependencies: ["SigV4", "CCurl", "CProcessSpawn", "ProcessLaunch", "StrictJSON", "SharedRules"]),
        .target(name: "TimelineStore", dependencies: ["TimelineCore", "StrictJSON", "CSQLite"]),
        .target(name: "Ingest", dependencies: ["TimelineCore", "TimelineStore", "SQSClient"]),
        .target(name: "TimelineUI", dependencies: ["TimelineCore"]),
        // Runs TimelineUI's effects on background lanes against the store and feeds the results back.
        .target(name: "TimelineRuntime", dependencies: ["TimelineUI", "TimelineCore", "CMalloc"]),
        .target(name: "Terminal", dependencies: ["TimelineUI", "TimelineCore", "CNCursesW", "CGlibcGNU"]),
        // Human in the loop: sends replies (SQS or webhook) and keeps their outcome.
        .target(name: "ReplyDelivery", dependencies: ["TimelineCore", "SQSClient", "StrictJSON"]),
        // Notifications (decisions and channels), read state watching, the fleet line.
        .target(name: "Attention", dependencies: ["TimelineCore", "TimelineStore", "ProcessLaunch"]),
        // The config file: settings with provenance (flag > environment > file > default) and named views.
        .target(name: "TimelineConfig", dependencies: ["TimelineCore", .product(name: "TOMLKit", package: "TOMLKit")]),
        // Agents' own hooks (Claude Code, Codex, Gemini CLI, Cursor, opencode, aider) as events: mapping,
        // secret redaction, the spool, the time-boxed publisher and the settings-file installers.
        .target(name: "AgentHooks", dependencies: ["TimelineCore", "StrictJSON", "SharedRules"]),
        .executableTarget(
            name: "timeline",
            dependencies: [
                "TimelineCore", "TimelineStore", "SQSClient", "Ingest", "TimelineUI", "TimelineRuntime", "Terminal",
                "ReplyDelivery", "Attention", "AgentHooks", "ProcessLaunch",
                "StrictJSON",
                "TimelineConfig",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            plugins: ["VersionStamp"]  // TimelineVersion.string, from the VERSION file
        ),
        // Generates TimelineVersion before every build (scripts/version-stamp.sh).
        .plugin(name: "VersionStamp", capability: .buildTool()),
        // `make bench`: prints figures, asserts nothing.
        .executableTarget(
            name: "TimelineBench",
            dependencies: [
                "TimelineCore", "TimelineStore", "TimelineUI", "TimelineRuntime", "SQSClient", "Ingest", "TestSupport",
                "StrictJSON",
            ]
        ),

        // Shared by test targets: a real moto server, the fault-injecting proxy, temp directories.
        .target(name: "TestSupport", dependencies: ["SQSClient", "TimelineCore"], path: "Sources/TestSupport"),

        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON"]),
        .testTarget(name: "TimelineCoreTests", dependencies: ["TimelineCore", "StrictJSON", "TestSupport"]),
        .testTarget(name: "TimelineConfigTests", dependencies: ["TimelineConfig", "TimelineCore", "TestSupport"]),
        .testTarget(name: "SigV4Tests", dependencies: ["SigV4", "TestSupport"]),
        .testTarget(name: "SQSClientTests", dependencies: ["SQSClient", "ProcessLaunch", "SharedRules", "TestSupport"]),
        .testTarget(name: "TimelineStoreTests", dependencies: ["TimelineStore", "TimelineCore", "TestSupport"],
                    exclude: ["Fixtures"]),
        // The built `timeline` binary run as a subprocess (its commands, flags, output and exit codes), and the
        // command module's error routing unit-tested.
        .testTarget(name: "CLITests", dependencies: [
            "TimelineStore", "TimelineCore", "TestSupport", "timeline",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "IngestTests", dependencies: ["Ingest", "TimelineStore", "SQSClient", "TimelineCore", "TestSupport"]),
        .testTarget(
            name: "ReplyDeliveryTests",
            dependencies: ["ReplyDelivery", "TimelineStore", "TimelineCore", "SQSClient", "StrictJSON", "TestSupport"]),
        .testTarget(
            name: "TimelineUITests", dependencies: ["TimelineUI", "TimelineRuntime", "TimelineCore", "TestSupport"],
            exclude: ["Goldens"]  // read through #filePath, compared (and recorded) by the golden tests
        ),
        .testTarget(
            name: "TimelineRuntimeTests",
            dependencies: ["TimelineRuntime", "TimelineUI", "TimelineCore", "TimelineStore", "TestSupport"]
        ),
        .testTarget(name: "TerminalTests",
                    dependencies: ["Terminal", "TimelineUI", "CNCursesW", "TimelineCore", "TimelineStore", "TestSupport"]),
        .testTarget(name: "AgentHooksTests", dependencies: ["AgentHooks", "TimelineCore", "StrictJSON", "SharedRules", "TestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "AttentionTests", dependencies: ["Attention", "TimelineStore", "TimelineCore", "StrictJSON", "TestSupport"]),
    ]
)
