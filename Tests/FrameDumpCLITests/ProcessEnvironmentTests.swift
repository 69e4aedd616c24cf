import Testing
@testable import FrameDumpCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `ProcessEnvironment.current()` reads `environ` as `getenv(3)` does. Read only: `setenv` while
/// other tests run could race their `getenv`.
@Suite struct ProcessEnvironmentTests {
    @Test func everyVariableIsWhatGetenvGives() {
        let environment = ProcessEnvironment.current()
        #expect(!environment.isEmpty)
        for (name, value) in environment {
            let expected = getenv(name).map { String(cString: $0) }
            #expect(value == expected, "\(name)")
        }
        #expect(environment["PATH"] != nil)
        #expect(environment["FRAMEDUMP_NO_SUCH_VARIABLE_SET"] == nil)
    }
}
