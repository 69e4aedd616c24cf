import FrameDumpCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(FrameDumpCommand.main(Array(CommandLine.arguments.dropFirst())))
