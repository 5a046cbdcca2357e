// PushCore builds on the wire model; importing PushCore brings it along.
@_exported import PushWire
