"""PyPI's hdfs-native (a Rust client of the NameNode and DataNode protocols, no Java) against an
IndexFS gateway: mkdirs, put, get, list, rename, delete, with every answer checked.

Usage: python3 hdfs_native_through_gateway.py hdfs://host:port BASE_DIR
Prints HDFS_NATIVE_OK and exits 0 when every check passed; otherwise the failure, exit 1.
"""
import os
import sys

from hdfs_native import Client, WriteOptions


def main(url, base):
    client = Client(url)
    # Written inline in IndexFS by the test before this script runs: served from a read copy.
    with client.read(base + "/inline.txt") as r:
        assert r.read() == b"inline in IndexFS\n", "inline file read back"
    client.mkdirs(base + "/dir/sub", 0o755, True)
    assert client.get_file_info(base + "/dir/sub").isdir, "mkdirs made a directory"

    small = b"hello from hdfs-native\n"
    with client.create(base + "/dir/small.txt") as w:
        w.write(small)
    # Several blocks of 1 MiB, written by the Rust client straight to the DataNodes.
    big = os.urandom(3 * 1024 * 1024 + 4321)
    options = WriteOptions()
    options.block_size = 1024 * 1024
    with client.create(base + "/dir/big.bin", options) as w:
        for i in range(0, len(big), 100_000):
            w.write(big[i:i + 100_000])

    with client.read(base + "/dir/small.txt") as r:
        assert r.read() == small, "small file read back"
    with client.read(base + "/dir/big.bin") as r:
        got = r.read()
    assert got == big, "big file read back: %d bytes, expected %d" % (len(got), len(big))
    assert client.get_file_info(base + "/dir/big.bin").length == len(big), "big file length"

    names = sorted(s.path.rsplit("/", 1)[-1] for s in client.list_status(base + "/dir"))
    assert names == ["big.bin", "small.txt", "sub"], "listing: %s" % names

    client.rename(base + "/dir/small.txt", base + "/dir/sub/renamed.txt")
    with client.read(base + "/dir/sub/renamed.txt") as r:
        assert r.read() == small, "renamed file read back"
    try:
        client.get_file_info(base + "/dir/small.txt")
        raise AssertionError("the old name is gone")
    except FileNotFoundError:
        pass

    assert client.delete(base + "/dir/big.bin", False), "delete a file"
    assert client.delete(base + "/dir", True), "delete a tree"
    try:
        client.get_file_info(base + "/dir")
        raise AssertionError("the tree is gone")
    except FileNotFoundError:
        pass
    print("HDFS_NATIVE_OK")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
