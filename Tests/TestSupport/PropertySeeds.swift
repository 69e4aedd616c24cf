// The one seeded generator of the tests is FrameFuzzing's: the fuzzer, the benchmarks and every
// test draw from the same SplitMix64, so a seed printed by any of them replays anywhere. Test
// targets get it through this module.
@_exported import struct FrameFuzzing.FuzzRandom

/// Seeds for property tests (drawn with `FuzzRandom`, so a run replays exactly from its seed):
/// fixed ones that always run, plus one fresh per run (printed on failure).
package let propertySeeds: [UInt64] = [1, 2, 0xDEAD_BEEF, UInt64.random(in: 0...UInt64.max)]
