import FolioTestSupport
import Foundation

/// A stand-in for the OpenTelemetry Collector's OTLP/HTTP receiver: it takes
/// `application/x-protobuf` export requests and refuses, as the Collector does, a batch that is
/// not protobuf (415) or that holds an id of the wrong length (400 `invalid length for ID`):
/// trace ids 16 bytes, span ids 8, a parent span id 8 or none; all-zero ids are invalid too.
enum OTLPCollectorStub {
    static func reply(_ request: TestUpstream.Recorded) -> TestUpstream.Reply {
        guard request.header("Content-Type")?.hasPrefix("application/x-protobuf") == true else {
            return .text("unsupported media type", status: 415)
        }
        do {
            for span in try ExportedSpans.spans(inRequest: request.body) {
                guard span.rawTraceID.count == 16, span.rawTraceID.contains(where: { $0 != 0 }),
                    span.rawSpanID.count == 8, span.rawSpanID.contains(where: { $0 != 0 }),
                    span.rawParentSpanID.isEmpty || span.rawParentSpanID.count == 8
                else {
                    return .text("proto: invalid length for ID", status: 400)
                }
            }
        } catch {
            return .text("proto: cannot parse invalid wire-format data", status: 400)
        }
        return TestUpstream.Reply(status: 200, headers: [("Content-Type", "application/x-protobuf")])
    }
}

/// The spans in OTLP protobuf export requests (`ExportTraceServiceRequest`), ids as lowercase hex.
struct ExportedSpans {
    struct Span {
        var name: String
        var rawTraceID: [UInt8]
        var rawSpanID: [UInt8]
        var rawParentSpanID: [UInt8]
        var kind: String
        var attributes: [String: String]
        var serviceName: String?

        var traceID: String { Self.hex(rawTraceID) }
        var spanID: String { Self.hex(rawSpanID) }
        var parentSpanID: String? { rawParentSpanID.isEmpty ? nil : Self.hex(rawParentSpanID) }

        static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    }

    var all: [Span] = []
    var serviceNames: Set<String> = []

    init(_ requests: [TestUpstream.Recorded]) throws {
        for request in requests {
            let spans = try Self.spans(inRequest: request.body)
            all += spans
            serviceNames.formUnion(spans.compactMap(\.serviceName))
        }
    }

    struct Malformed: Error {}

    /// opentelemetry/proto/collector/trace/v1 `ExportTraceServiceRequest`: resource_spans = 1;
    /// ResourceSpans: resource = 1, scope_spans = 2; ScopeSpans: spans = 2; Span: trace_id = 1,
    /// span_id = 2, parent_span_id = 4, name = 5, kind = 6, attributes = 9.
    static func spans(inRequest body: [UInt8]) throws -> [Span] {
        var spans: [Span] = []
        for resourceSpans in try Wire.fields(body[...]) where resourceSpans.number == 1 {
            var serviceName: String?
            for field in try Wire.fields(resourceSpans.bytes) {
                if field.number == 1 {
                    let attributes = try Self.attributes(of: field.bytes, number: 1)
                    serviceName = attributes["service.name"]
                } else if field.number == 2 {
                    for scopeField in try Wire.fields(field.bytes) where scopeField.number == 2 {
                        var span = try Self.span(scopeField.bytes)
                        span.serviceName = serviceName
                        spans.append(span)
                    }
                }
            }
        }
        return spans
    }

    static func span(_ bytes: ArraySlice<UInt8>) throws -> Span {
        var span = Span(
            name: "", rawTraceID: [], rawSpanID: [], rawParentSpanID: [], kind: "unspecified", attributes: [:])
        for field in try Wire.fields(bytes) {
            switch field.number {
            case 1: span.rawTraceID = Array(field.bytes)
            case 2: span.rawSpanID = Array(field.bytes)
            case 4: span.rawParentSpanID = Array(field.bytes)
            case 5: span.name = String(decoding: field.bytes, as: UTF8.self)
            case 6:
                span.kind =
                    ["unspecified", "internal", "server", "client", "producer", "consumer"][
                        min(Int(field.value), 5)]
            default: break
            }
        }
        span.attributes = try attributes(of: bytes, number: 9)
        return span
    }

    /// The `KeyValue` fields numbered `number` of a message: key = 1, value = 2 (AnyValue:
    /// string_value = 1, bool_value = 2, int_value = 3, double_value = 4).
    static func attributes(of message: ArraySlice<UInt8>, number: Int) throws -> [String: String] {
        var result: [String: String] = [:]
        for entry in try Wire.fields(message) where entry.number == number {
            var key = ""
            var value = ""
            for part in try Wire.fields(entry.bytes) {
                if part.number == 1 { key = String(decoding: part.bytes, as: UTF8.self) }
                guard part.number == 2 else { continue }
                for any in try Wire.fields(part.bytes) {
                    switch any.number {
                    case 1: value = String(decoding: any.bytes, as: UTF8.self)
                    case 2: value = any.value != 0 ? "true" : "false"
                    case 3: value = "\(Int64(bitPattern: any.value))"
                    case 4: value = "\(Double(bitPattern: any.value))"
                    default: break
                    }
                }
            }
            result[key] = value
        }
        return result
    }
}

/// Protocol Buffers' wire format, read only as far as the tests need: each field's number with
/// its varint or fixed value, or its length-delimited bytes.
enum Wire {
    struct Field {
        var number: Int
        var value: UInt64 = 0
        var bytes: ArraySlice<UInt8> = []
    }

    static func fields(_ data: ArraySlice<UInt8>) throws -> [Field] {
        var fields: [Field] = []
        var index = data.startIndex
        func varint() throws -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard index < data.endIndex, shift < 64 else { throw ExportedSpans.Malformed() }
                let byte = data[index]
                index += 1
                result |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return result }
                shift += 7
            }
        }
        func fixed(_ count: Int) throws -> UInt64 {
            guard data.endIndex - index >= count else { throw ExportedSpans.Malformed() }
            var result: UInt64 = 0
            for offset in 0..<count { result |= UInt64(data[index + offset]) << (8 * UInt64(offset)) }
            index += count
            return result
        }
        while index < data.endIndex {
            let tag = try varint()
            var field = Field(number: Int(tag >> 3))
            switch tag & 7 {
            case 0: field.value = try varint()
            case 1: field.value = try fixed(8)
            case 5: field.value = try fixed(4)
            case 2:
                let length = Int(try varint())
                guard length >= 0, data.endIndex - index >= length else { throw ExportedSpans.Malformed() }
                field.bytes = data[index..<index + length]
                index += length
            default: throw ExportedSpans.Malformed()
            }
            guard field.number > 0 else { throw ExportedSpans.Malformed() }
            fields.append(field)
        }
        return fields
    }
}
