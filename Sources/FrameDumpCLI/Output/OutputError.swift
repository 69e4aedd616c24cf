/// Why standard output could not be written.
enum OutputError: Error, Equatable {
    /// The reader closed the pipe (`EPIPE`): stop quietly.
    case closed
    /// Any other write error, with the system's text for it.
    case failed(String)
}
