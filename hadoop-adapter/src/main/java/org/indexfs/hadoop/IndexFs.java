package org.indexfs.hadoop;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.DelegateToFileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code FileContext} support: set {@code fs.AbstractFileSystem.indexfs.impl} to this class.
 * Renames use FileContext's exact-destination rules, atomically on the server.
 */
public class IndexFs extends DelegateToFileSystem {
  public IndexFs(URI uri, Configuration conf) throws IOException, URISyntaxException {
    // authorityRequired=false: DelegateToFileSystem demands a default port when the authority is
    // required, but ours is a cluster name, not host:port. IndexFileSystem.initialize still
    // rejects a URI without one.
    super(uri, new IndexFileSystem(), conf, IndexFileSystem.SCHEME, false);
  }

  @Override
  public void renameInternal(Path src, Path dst, boolean overwrite) throws IOException {
    ((IndexFileSystem) fsImpl).renameExact(src, dst, overwrite);
  }
}
