import AgentHooks
import Testing

@Suite("Sender environment")
struct SenderEnvironmentTests {
    @Test func relativePathsAreMadeAbsoluteAgainstTheHooksDirectory() {
        let resolved = SenderEnvironment.resolvingPaths([
            "TIMELINE_CONFIG": "conf/timeline.toml",
            "AWS_CONFIG_FILE": "../aws/config",
            "AWS_SHARED_CREDENTIALS_FILE": "/home/me/.aws/credentials",
            "AWS_WEB_IDENTITY_TOKEN_FILE": "./token",
            "HOME": "",
            "XDG_STATE_HOME": "state",  // relative: ignored everywhere, so left as it is
            "TIMELINE_QUEUE_URL": "queue/relative-looking",  // not a path
        ], against: "/work/project")
        #expect(resolved == [
            "TIMELINE_CONFIG": "/work/project/conf/timeline.toml",
            "AWS_CONFIG_FILE": "/work/aws/config",
            "AWS_SHARED_CREDENTIALS_FILE": "/home/me/.aws/credentials",
            "AWS_WEB_IDENTITY_TOKEN_FILE": "/work/project/token",
            "HOME": "",
            "XDG_STATE_HOME": "state",
            "TIMELINE_QUEUE_URL": "queue/relative-looking",
        ])
    }

    @Test func anEnvironmentWithAbsolutePathsIsLeftAsItIs() {
        let environment = ["TIMELINE_CONFIG": "/etc/timeline.toml", "HOME": "/home/me", "AWS_PROFILE": "dev"]
        #expect(SenderEnvironment.resolvingPaths(environment, against: "/elsewhere") == environment)
    }
}
