import CPcap
import PacketDecoding
// Placeholder: the libpcap reader lands with issue 3.
