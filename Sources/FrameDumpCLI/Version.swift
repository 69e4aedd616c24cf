/// The version `framedump --version` prints; the one place it is written.
let framedumpVersion = "0.1.0"
