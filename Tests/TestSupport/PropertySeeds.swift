/// Seeds for property tests (drawn with FrameFuzzing's `FuzzRandom`, SplitMix64, so a run
/// replays exactly from its seed): fixed ones that always run, plus one fresh per run (printed
/// on failure).
let propertySeeds: [UInt64] = [1, 2, 0xDEAD_BEEF, UInt64.random(in: 0...UInt64.max)]
