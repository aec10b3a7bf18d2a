/// Identifies the engine build (the skeleton's smoke test reads it).
public enum EngineVersion {
    public static let name = "folio"
}
