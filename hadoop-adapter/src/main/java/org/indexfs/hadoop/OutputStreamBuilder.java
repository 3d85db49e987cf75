package org.indexfs.hadoop;

import java.io.IOException;
import java.util.EnumSet;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSDataOutputStreamBuilder;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIOException;

/**
 * {@code createFile}/{@code appendFile} as HDFS's HdfsDataOutputStreamBuilder builds them: the flags,
 * permission, replication, block size and checksum options it was given, through this file system's
 * create/append. Like HDFS's (and unlike FileSystem's default builder) it ignores option keys it does
 * not know, mandatory ones included.
 */
final class OutputStreamBuilder extends FSDataOutputStreamBuilder<FSDataOutputStream, OutputStreamBuilder> {
  OutputStreamBuilder(FileSystem fs, Path path) {
    super(fs, path);
  }

  @Override
  public OutputStreamBuilder getThisBuilder() {
    return this;
  }

  @Override
  public FSDataOutputStream build() throws IOException {
    EnumSet<CreateFlag> flags = getFlags();
    if (flags.contains(CreateFlag.CREATE) || flags.contains(CreateFlag.OVERWRITE)) {
      if (isRecursive()) {
        return getFS().create(getPath(), getPermission(), flags, getBufferSize(), getReplication(), getBlockSize(),
            getProgress(), getChecksumOpt());
      }
      return getFS().createNonRecursive(getPath(), getPermission(), flags, getBufferSize(), getReplication(),
          getBlockSize(), getProgress());
    }
    if (flags.contains(CreateFlag.APPEND)) {
      return getFS().append(getPath(), getBufferSize(), getProgress());
    }
    throw new PathIOException(getPath().toString(), "Must specify either create or append");
  }
}
