/// The demo's bundled data set: 1,337 named objects, generated deterministically so every run
/// (and every test) sees the same bytes.
///
/// Names mix accents, other scripts, lowercase starts, digits and punctuation, so section
/// indexes have something to show; prices keep trailing zeros (`12.50`) to show that items pass
/// through byte for byte.
public enum DemoData {
    public static let count = 1_337

    static let firstWords = [
        "Alpha", "Ångström", "Bravo", "Börek", "Charlie", "Çelik", "Delta", "Đurđa", "Echo", "Émile",
        "Foxtrot", "Golf", "Hotel", "India", "Juliett", "Kilo", "Łukasz", "Lima", "Mike", "November",
        "Œuvre", "Oscar", "Ørsted", "Papa", "Quebec", "Romeo", "Sierra", "Þór", "Tango", "Uniform",
        "Victor", "Whiskey", "X-ray", "Yankee", "Zulu", "Zoë", "iPhone", "eBay", "Йога", "東京", "42nd", "_private",
    ]
    static let secondWords = [
        "Anchor", "Beacon", "Cable", "Dynamo", "Engine", "Falcon", "Gear", "Harbor", "Island", "Jet",
        "Kettle", "Lantern", "Magnet", "Needle", "Orbit", "Pulley", "Quartz", "Rocket", "Spring", "Turbine",
        "Umbrella", "Valve", "Widget", "Xylophone", "Yoke", "Zipper", "Bolt", "Crank", "Drill", "Ember",
        "Flint", "Globe",
    ]
    static let categories = ["tools", "toys", "garden", "kitchen", "office"]

    /// The object at `index` as its JSON text; a `revision` above 0 is the same object (its
    /// `id`) renamed and repriced by the demo's changes (`objects(version:)`).
    public static func object(_ index: Int, revision: Int = 0) -> String {
        let first = firstWords[(index + revision) % firstWords.count]
        let second = secondWords[(index / firstWords.count) % secondWords.count]
        let cents = (index * 7_919 + revision * 1_234) % 100_000
        let price = "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
        let category = categories[index % categories.count]
        let inStock = index % 3 != 0
        return
            #"{"id":\#(index + 1),"name":"\#(first) \#(second)","category":"\#(category)","price":\#(price),"inStock":\#(inStock)}"#
    }

    /// The list after `version` of the demo's changes (docs/API.md, "Changes between
    /// snapshots", shown by `folio demo`): each one renames and reprices an object (it moves under
    /// `sort=name`), removes one and adds a new one, so the count stays 1,337. Version 0 is
    /// `array()`'s list.
    public static func objects(version: Int) -> [String] {
        var items = (0..<count).map { object($0) }
        guard version > 0 else { return items }
        var ids = Array(1...count)
        for change in 1...version {
            let renamed = (change * 211) % items.count
            items[renamed] = object(ids[renamed] - 1, revision: change)
            let removed = (change * 389 + 1) % items.count
            items.remove(at: removed)
            ids.remove(at: removed)
            let added = (change * 97) % items.count
            items.insert(object(count + change - 1), at: added)
            ids.insert(count + change, at: added)
        }
        return items
    }

    /// The whole list as one JSON array (what a legacy endpoint returns).
    public static func array(_ range: Range<Int> = 0..<count) -> String {
        "[" + range.map { object($0) }.joined(separator: ",") + "]"
    }
}
