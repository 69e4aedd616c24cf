/// One measured figure of a verdict or measure record: a key and a value that both the text
/// and the JSON Lines output render (durations as seconds).
struct Figure {
    enum Value {
        case seconds(Int64)
        case count(Int)
        case ratio(Double)
        case text(String)
        case durations([Int64])
        case group([Figure])
        /// A count over time: each change as (nanoseconds since the capture's first packet,
        /// the new count), in time order.
        case steps([(at: Int64, count: Int)])
    }

    var key: String
    var value: Value

    init(_ key: String, _ value: Value) {
        self.key = key
        self.value = value
    }
}
