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

    /// The object at `index` as its JSON text.
    public static func object(_ index: Int) -> String {
        let first = firstWords[index % firstWords.count]
        let second = secondWords[(index / firstWords.count) % secondWords.count]
        let cents = (index * 7_919) % 100_000
        let price = "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
        let category = categories[index % categories.count]
        let inStock = index % 3 != 0
        return
            #"{"id":\#(index + 1),"name":"\#(first) \#(second)","category":"\#(category)","price":\#(price),"inStock":\#(inStock)}"#
    }

    /// The whole list as one JSON array (what a legacy endpoint returns).
    public static func array(_ range: Range<Int> = 0..<count) -> String {
        "[" + range.map(object).joined(separator: ",") + "]"
    }
}
