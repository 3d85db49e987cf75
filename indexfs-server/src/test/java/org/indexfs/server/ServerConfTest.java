package org.indexfs.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code bin/indexfs server --slots …}: one process, several slots, each with its own directory and ports. */
class ServerConfTest {
  @Test
  void eachListedSlotGetsItsDirectoryAndShiftedFixedPorts() {
    List<Map<String, String>> slots = ServerConf.perSlot(ServerConf.load(new String[] {
        "--slots", "4, 0,7", "--dir", "/data", "-D", "indexfs.server.port=9000", "-Dindexfs.http.port=9870"}));
    assertEquals(3, slots.size());
    int[] expected = {4, 0, 7};
    for (int i = 0; i < 3; i++) {
      Map<String, String> c = slots.get(i);
      assertEquals(String.valueOf(expected[i]), c.get("indexfs.server.slot"));
      assertEquals(Path.of("/data", "slot-" + expected[i]).toString(), c.get("indexfs.server.dir"));
      assertEquals(String.valueOf(9000 + i), c.get("indexfs.server.port"));
      assertEquals(String.valueOf(9870 + i), c.get("indexfs.http.port"));
    }
  }

  @Test
  void freePortsStayFreeAndOneSlotIsAsGiven() {
    Map<String, String> one = ServerConf.load(new String[] {"--slot", "3", "--dir", "/d"});
    assertEquals(List.of(one), ServerConf.perSlot(one));
    Map<String, String> c = ServerConf.perSlot(ServerConf.load(new String[] {"--slots", "1,2", "--dir", "/d"})).get(1);
    assertEquals(null, c.get("indexfs.server.port"));
    assertEquals(null, c.get("indexfs.http.port"));
  }

  @Test
  void aBadListIsRefusedWithWhatIsWrong() {
    assertEquals("indexfs.server.slots: slot 2 is listed twice", assertThrows(IllegalArgumentException.class,
        () -> ServerConf.perSlot(ServerConf.load(new String[] {"--slots", "2,2"}))).getMessage());
    assertEquals("indexfs.server.slots lists slot numbers, got 'x'", assertThrows(IllegalArgumentException.class,
        () -> ServerConf.perSlot(ServerConf.load(new String[] {"--slots", "1,x"}))).getMessage());
  }
}
