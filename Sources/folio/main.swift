import FolioGateway
import ArgumentParser
print("folio")
