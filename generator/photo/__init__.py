"""The photo reader: a photo or scan of a finished sheet becomes a checked final position.

The reader finds the sheet by its four corner markers, reads its spec from the QR code, rebuilds
that exact sheet, and measures, item by item, which pencil colour is on it. Everything read from a
file or a QR code is untrusted input.
"""
