/// The version `timeline --version` and `timeline -V` print: the one place it is written (bump it here
/// for a release; nothing else repeats it).
enum TimelineVersion {
    static let string = "0.12.0"
}
