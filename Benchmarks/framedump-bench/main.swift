import CZlib
import FrameCodec
// Placeholder: the benchmark lands with issue 6.
