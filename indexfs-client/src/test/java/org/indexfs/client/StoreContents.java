package org.indexfs.client;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.indexfs.server.store.MetadataStore;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksIterator;

/** Every record of a slot's store, column family by column family: what two replicas must agree on entry by entry. */
final class StoreContents {
  private StoreContents() {}

  static Map<String, List<String>> of(MetadataStore store) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    out.put("entries", dump(store, store.entries()));
    out.put("principals", dump(store, store.principals()));
    out.put("meta", dump(store, store.meta()));
    out.put("calls", dump(store, store.calls()));
    out.put("names", dump(store, store.names()));
    return out;
  }

  private static List<String> dump(MetadataStore store, ColumnFamilyHandle cf) {
    List<String> records = new ArrayList<>();
    HexFormat hex = HexFormat.of();
    try (RocksIterator it = store.iterator(cf, null)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        records.add(hex.formatHex(it.key()) + "=" + hex.formatHex(it.value()));
      }
    }
    return records;
  }

  /** The first difference between two dumps, or null. */
  static String firstDifference(Map<String, List<String>> a, Map<String, List<String>> b) {
    for (String cf : a.keySet()) {
      List<String> x = a.get(cf);
      List<String> y = b.get(cf);
      for (int i = 0; i < Math.max(x.size(), y.size()); i++) {
        String l = i < x.size() ? x.get(i) : "<none>";
        String r = i < y.size() ? y.get(i) : "<none>";
        if (!l.equals(r)) {
          return cf + " record " + i + " of " + x.size() + "/" + y.size() + ": " + abbreviate(l) + " vs " + abbreviate(r);
        }
      }
    }
    return null;
  }

  private static String abbreviate(String s) {
    return s.length() > 120 ? s.substring(0, 120) + "..." : s;
  }
}
