package org.indexfs.hadoop.admin;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.shell.Command;
import org.apache.hadoop.fs.shell.CommandFormat;
import org.apache.hadoop.util.StringUtils;
import org.indexfs.hadoop.IndexFileSystem;

/**
 * {@code -setQuota}, {@code -clrQuota}, {@code -setSpaceQuota} and {@code -clrSpaceQuota}, as
 * {@code hdfs dfsadmin} has them: the same arguments (quotas with binary prefixes: 10g, 2t), the same
 * per-directory errors (through Hadoop's own shell Command, so a missing path reads
 * "`/x': No such file or directory"), the same exit codes. Quotas by storage type are not kept by
 * IndexFS yet (it has no storage policies): {@code -storageType} is refused with a message saying so.
 */
final class QuotaCommand extends Command {
  static final long DONT_SET = Long.MAX_VALUE;
  static final long RESET = -1L;

  static final String SET_QUOTA_USAGE = "-setQuota <quota> <dirname>...<dirname>";
  static final String CLR_QUOTA_USAGE = "-clrQuota <dirname>...<dirname>";
  static final String SET_SPACE_QUOTA_USAGE = "-setSpaceQuota <quota> [-storageType <storagetype>] <dirname>...<dirname>";
  static final String CLR_SPACE_QUOTA_USAGE = "-clrSpaceQuota [-storageType <storagetype>] <dirname>...<dirname>";

  private final String commandName;
  private final long nsQuota;
  private final long dsQuota;

  private QuotaCommand(Configuration conf, String commandName, long nsQuota, long dsQuota, List<String> dirs) {
    super(conf);
    this.commandName = commandName;
    setName(commandName);
    this.nsQuota = nsQuota;
    this.dsQuota = dsQuota;
    this.args = dirs.toArray(new String[0]);
  }

  /** The command for {@code cmd} ({@code -setQuota} ...) with its arguments from {@code pos}. */
  static QuotaCommand parse(String cmd, String[] argv, int pos, Configuration conf) {
    switch (cmd) {
      case "-setQuota" -> {
        List<String> p = new CommandFormat(2, Integer.MAX_VALUE).parse(argv, pos);
        long quota = StringUtils.TraditionalBinaryPrefix.string2long(p.remove(0));
        return new QuotaCommand(conf, "setQuota", quota, DONT_SET, p);
      }
      case "-clrQuota" -> {
        List<String> p = new CommandFormat(1, Integer.MAX_VALUE).parse(argv, pos);
        return new QuotaCommand(conf, "clrQuota", RESET, DONT_SET, p);
      }
      case "-setSpaceQuota" -> {
        List<String> p = new CommandFormat(2, Integer.MAX_VALUE).parse(argv, pos);
        String str = p.remove(0).trim();
        long quota;
        try {
          quota = StringUtils.TraditionalBinaryPrefix.string2long(str);
        } catch (NumberFormatException nfe) {
          throw new IllegalArgumentException("\"" + str + "\" is not a valid value for a quota.");
        }
        refuseStorageType(p);
        return new QuotaCommand(conf, "setSpaceQuota", DONT_SET, quota, p);
      }
      case "-clrSpaceQuota" -> {
        List<String> p = new CommandFormat(1, Integer.MAX_VALUE).parse(argv, pos);
        refuseStorageType(p);
        return new QuotaCommand(conf, "clrSpaceQuota", DONT_SET, RESET, p);
      }
      default -> throw new IllegalArgumentException("Unknown quota command " + cmd);
    }
  }

  private static void refuseStorageType(List<String> p) {
    if (StringUtils.popOptionWithArgument("-storageType", p) != null) {
      throw new IllegalArgumentException("quotas by storage type are not supported by IndexFS yet");
    }
  }

  static String usage(String cmd) {
    return switch (cmd) {
      case "-setQuota" -> SET_QUOTA_USAGE;
      case "-clrQuota" -> CLR_QUOTA_USAGE;
      case "-setSpaceQuota" -> SET_SPACE_QUOTA_USAGE;
      default -> CLR_SPACE_QUOTA_USAGE;
    };
  }

  @Override
  public String getCommandName() {
    return commandName;
  }

  @Override
  protected void run(Path path) throws IOException {
    FileSystem fs = path.getFileSystem(getConf());
    if (!(fs instanceof IndexFileSystem ifs)) {
      throw new IllegalArgumentException("FileSystem " + fs.getUri() + " is not an IndexFS file system");
    }
    ifs.setQuota(path, nsQuota, dsQuota);
  }
}
