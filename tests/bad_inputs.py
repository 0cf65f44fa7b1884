"""Bad inputs built on the fly for the tests: what real users feed a batch by mistake (or malice)."""
from __future__ import annotations

import zipfile


def encrypted_office_file() -> bytes:
    """A compound (CFB) file whose directory names an EncryptedPackage stream, as Word writes with a password.

    Sector 0 holds the directory: the root entry, then the EncryptedPackage and EncryptionInfo streams
    (names in UTF-16LE, 128-byte entries); what the streams hold does not matter to the check.
    """
    header = bytearray(512)
    header[:8] = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
    header[0x1A:0x1C] = (3).to_bytes(2, "little")  # major version 3: 512-byte sectors
    header[0x1C:0x1E] = (0xFFFE).to_bytes(2, "little")  # little-endian
    header[0x1E:0x20] = (9).to_bytes(2, "little")
    header[0x30:0x34] = (0).to_bytes(4, "little")  # the directory starts at sector 0

    def entry(name: str, kind: int) -> bytes:
        raw = (name + "\0").encode("utf-16-le")
        e = bytearray(128)
        e[: len(raw)] = raw
        e[64:66] = len(raw).to_bytes(2, "little")
        e[66] = kind  # 5 root, 2 stream
        return bytes(e)

    directory = entry("Root Entry", 5) + entry("EncryptedPackage", 2) + entry("EncryptionInfo", 2) + bytes(128)
    return bytes(header) + directory + b"\0" * 4096


def docx_bomb(path, inflated_mb: int) -> None:
    """A zip laid out as a DOCX whose document.xml inflates ``inflated_mb`` MB of one repeated paragraph."""
    head = '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types/>')
        with z.open("word/document.xml", "w", force_zip64=True) as f:
            f.write(head.encode())
            block = ("<w:p><w:r><w:t>" + "甲" * 100 + "</w:t></w:r></w:p>").encode() * 3000
            for _ in range(inflated_mb * 1024 * 1024 // len(block)):
                f.write(block)
            f.write(b"</w:body></w:document>")
