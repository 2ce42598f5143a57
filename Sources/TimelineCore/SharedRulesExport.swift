// Rules that SQSClient needs too live below the event model (terminal text, network addresses, timestamps,
// command-line words); whoever imports TimelineCore sees them as before.
@_exported import SharedRules
