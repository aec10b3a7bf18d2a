import FolioEngine
import Hummingbird
import AsyncHTTPClient
import Yams
import ServiceLifecycle
public enum GatewayStub {}
