/// What a frame is to the policy.
enum FrameRole: String {
    case ping, pong, msg, ack
    /// Any other frame (a request the policy does not name, a data frame).
    case other
}
