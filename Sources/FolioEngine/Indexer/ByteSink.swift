/// Where the page writer puts bytes. Writing runs twice, once into a `ByteCounter` to learn the
/// size and once into the buffer allocated at that size, so each page costs a single
/// allocation however many items it has.
protocol ByteSink {
    mutating func write(_ byte: UInt8)
    mutating func write(_ bytes: UnsafeRawBufferPointer)
    /// The counting pass: a writer may count an upper bound of what it will write instead (a
    /// sparse item counts as its whole bytes rather than scanning its members twice).
    var isCounting: Bool { get }
}

extension ByteSink {
    var isCounting: Bool { false }
}

extension ByteSink {
    mutating func write(_ text: StaticString) {
        write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A non-negative or negative integer in decimal.
    mutating func writeDecimal(_ value: Int) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for any Int64
        let magnitude = value.magnitude
        withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = magnitude
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            if value < 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "-")
            }
            write(UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }
}

/// Counts bytes without storing them.
struct ByteCounter: ByteSink {
    var count = 0
    var isCounting: Bool { true }
    mutating func write(_ byte: UInt8) { count += 1 }
    mutating func write(_ bytes: UnsafeRawBufferPointer) { count += bytes.count }
}

/// Writes into memory sized beforehand by a `ByteCounter` pass.
struct BufferWriter: ByteSink {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    var position = 0

    mutating func write(_ byte: UInt8) {
        precondition(position < buffer.count, "writer overran its sized buffer")
        buffer[position] = byte
        position += 1
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        precondition(position + bytes.count <= buffer.count, "writer overran its sized buffer")
        UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[position...])
            .copyMemory(from: bytes)
        position += bytes.count
    }
}

extension Array: ByteSink where Element == UInt8 {
    mutating func write(_ byte: UInt8) { append(byte) }
    mutating func write(_ bytes: UnsafeRawBufferPointer) { append(contentsOf: bytes) }
}

/// Something written twice: to count, then to store.
protocol ByteWritable {
    func write(to sink: inout some ByteSink)
}

extension [UInt8] {
    /// Writes `content` once to count and once to store, into an array allocated once (at its
    /// exact size, or at an upper bound when a writer counts one: sparse items).
    init(exactly content: some ByteWritable) {
        var counter = ByteCounter()
        content.write(to: &counter)
        self.init(unsafeUninitializedCapacity: counter.count) { buffer, initialized in
            var writer = BufferWriter(buffer: buffer)
            content.write(to: &writer)
            precondition(writer.position <= counter.count, "the write pass overran the count")
            initialized = writer.position
        }
    }
}
