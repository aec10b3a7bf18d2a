import Foundation
import ListData

/// `make-list COUNT PATH`: writes the deterministic benchmark list of COUNT elements to PATH.
let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[1]), count >= 0 else {
    FileHandle.standardError.write(Data("usage: make-list COUNT PATH\n".utf8))
    exit(2)
}
let body = ListBody.make(count: count)
do {
    try Data(body).write(to: URL(fileURLWithPath: arguments[2]))
} catch {
    FileHandle.standardError.write(Data("make-list: \(arguments[2]): \(error)\n".utf8))
    exit(1)
}
print("\(arguments[2]): \(count) elements, \(body.count) bytes")
