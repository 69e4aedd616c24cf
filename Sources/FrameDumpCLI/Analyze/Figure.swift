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
    }

    var key: String
    var value: Value

    init(_ key: String, _ value: Value) {
        self.key = key
        self.value = value
    }
}
