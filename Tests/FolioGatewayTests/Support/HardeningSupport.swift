import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import FolioGateway

/// `count` objects whose names start with different letters, for section and `beginsWith` tests.
func lettersBody(_ names: [String]) -> String {
    "[" + names.enumerated().map { #"{"id":\#($0.offset),"name":"\#($0.element)"}"# }.joined(separator: ",") + "]"
}
