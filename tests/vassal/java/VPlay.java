// Plays a module in real VASSAL 3.7.26 the way a player at the table does, for the tests:
// it presses keys as each side of the roster and draws maps at 100 %. It runs beside the
// shared checker (vcheck.jar, whose VCheck helpers it calls: dialog watchdog, problem and
// record lines, a save's decoding, the pieces listed, the chat read) and prints the same
// tab-separated records, plus:
//
//   SIDES   <side> ...                      the roster's sides, in order
//   MASK    <slot> <owners> <masker> <viewer> <masked> <obscuredToViewer> <viewerCanUnmask> <nameSeen>
//           one line per (side that pressed the Mask key, side that looks), after the press
//   UNMASK  <slot> <masker> <presser> <maskedAfter>   a second press of the key by <presser>
//   PICTURE <source> <map> <file> <width> <height>  the map drawn at 100 % with its pieces
//   MENU    <menu> <item> ...                 each toolbar menu and the buttons it holds
//   ROLL    <button> <dice> <sides>           a Dice Button pressed, 24 times each (its report follows as CHAT)
//   PROP    <property> <value>                a Global Property's value before its buttons are pressed
//   PRESS   <button> <property> <value>       a +1/-1 Change Property button pressed (report follows as CHAT)
//   LABEL   <slot> <text>                     each text label of the palette counter <slot>, as VASSAL fills it
//   SENDTO  <slot> <command> <key> <map> <location>  a Send To pressed on a piece on the first map
//           of the game SAVE.vsav (a game has boards for a Send To to find its zone in)
//   SEEN    <name> <map> <masked to me> <location>  a piece of a --seen save as that side sees it
//   TRAIL   <slot> <menu command> <key> <shown before> <shown after>  a unit's Movement Trail
//           (Footprint) as VASSAL read it, and its key pressed once on a fresh piece
//   ELIM    <slot> <side> <step> <key> <map> <location> <properties>  a unit with a Trigger of its own
//           (up to --eliminate's N per side) on the first map of SAVE.vsav, each of KEYS pressed
//           in turn (step 0: before any, key "-"); <properties> is every Global Property as
//           name=value, space-separated; the reports follow as CHAT
//   TKEY    <slot> <key> <properties>            a key pressed on the palette counter <slot>
//           standing on the first map (its reports follow as CHAT)
//   FACE    <slot> <step> <key> <level> <image> <file>  a unit whose counter has the Layer LAYER (up to
//           --faces' N per side) placed on the first map of SAVE.vsav, each of KEYS pressed in
//           turn (step 0: before any): LAYER's level and image as VASSAL reads them then, and
//           the counter drawn at 100 % to <file> in OUTDIR
//   CUP     <slot> <command> <key> <deck> <in deck>  a Return to Deck pressed on a piece on the
//           first map: the DrawPile it went to, and whether the piece is now inside it
//   TURN    <save> <tracker> <levels> <state>   each Turn Tracker of the game SAVE.vsav of a --turns
//           part as VASSAL holds it once the save is loaded: <levels> its turn levels as
//           Class:name, comma-separated, nested ones after their parent; <state> its getState(),
//           the state VASSAL's own restore command (a save's or log's first command) writes
//   PART    <part> [<save>]                    before each part of the run (masks, dice, tracks,
//           trails, sendto, eliminate, trackkeys, cups, faces, seen, turns, picture: the option's
//           name; seen, turns and picture, which may repeat, with their SAVE.vsav),
//           so the tests sharing one run of a module each read their own part's records; the
//           parts run in this order whatever the order of the options
//
// Usage: VPlay MODULE.vmod [--masks] [--dice] [--tracks SLOT] [--trails] [--sendto SAVE.vsav] [--seen SAVE.vsav SIDE ...]
//              [--picture SAVE.vsav MAPNAME OUT.png ...] [--eliminate SAVE.vsav N KEY;KEY...]
//              [--trackkeys SAVE.vsav SLOT KEY;KEY...] [--cups SAVE.vsav]
//              [--faces SAVE.vsav N KEY;KEY... LAYER OUTDIR] [--turns SAVE.vsav ...]
//   (a KEY is VASSAL's encoding, keycode,modifiers: 69,130 is Ctrl+E)
import java.awt.*;
import java.awt.event.InputEvent;
import java.awt.image.BufferedImage;
import java.io.*;
import java.nio.file.*;
import java.util.*;
import java.util.List;

import javax.swing.KeyStroke;

import VASSAL.Info;
import VASSAL.build.GameModule;
import VASSAL.build.module.BasicLogger;
import VASSAL.build.module.Map;
import VASSAL.build.module.PlayerRoster;
import VASSAL.build.module.map.boardPicker.Board;
import VASSAL.build.module.metadata.SaveMetaData;
import VASSAL.build.widget.PieceSlot;
import VASSAL.counters.*;
import VASSAL.i18n.Localization;
import VASSAL.launch.StandardConfig;
import VASSAL.launch.StartUp;
import VASSAL.tools.DataArchive;

public class VPlay {
  static final String ME = "vplay-player";

  static void become(String side) {
    final PlayerRoster r = GameModule.getGameModule().getPlayerRoster();
    new PlayerRoster.Remove(r, GameModule.getActiveUserId()).execute();
    new PlayerRoster.Add(r, GameModule.getActiveUserId(), "oracle", side).execute();
    if (!side.equals(PlayerRoster.getMySide())) {
      VCheck.problem("side", "could not take the side '" + side + "' (VASSAL says '" + PlayerRoster.getMySide() + "')");
    }
  }

  static Obscurable maskOf(GamePiece p) {
    return (Obscurable) Decorator.getDecorator(p, Obscurable.class);
  }

  static KeyStroke maskKey(Obscurable o) throws Exception {
    final java.lang.reflect.Field f = Obscurable.class.getDeclaredField("keyCommand");
    f.setAccessible(true);
    return ((VASSAL.tools.NamedKeyStroke) f.get(o)).getKeyStroke();
  }

  static String ownersOf(Obscurable o) throws Exception {
    final java.lang.reflect.Field f = Obscurable.class.getDeclaredField("access");
    f.setAccessible(true);
    final Object a = f.get(o);
    if (a instanceof SpecifiedSideAccess) return String.join(":", ((SpecifiedSideAccess) a).getSides());
    return a.getClass().getSimpleName();
  }

  /** For each slot with a Mask: each side presses the key on a fresh piece, every side looks. */
  static void masks(List<String> sides) throws Exception {
    final GameModule g = GameModule.getGameModule();
    for (final PieceSlot slot : g.getAllDescendantComponentsOf(PieceSlot.class)) {
      if (slot.getPiece() == null || maskOf(slot.getPiece()) == null) continue;
      for (final String masker : sides) {
        become(masker);
        final GamePiece p = PieceCloner.getInstance().clonePiece(slot.getPiece());
        final Obscurable o = maskOf(p);
        final KeyStroke k = maskKey(o);
        p.keyEvent(k);
        final boolean masked = o.obscuredToOthers();
        for (final String viewer : sides) {
          become(viewer);
          VCheck.emit("MASK", slot.getConfigureName(), ownersOf(o), masker, viewer,
            Boolean.toString(masked), Boolean.toString(o.obscuredToMe()),
            Boolean.toString(o.isMaskable()), String.valueOf(p.getName()));
        }
        for (final String presser : sides) {
          final GamePiece q = PieceCloner.getInstance().clonePiece(p);
          become(presser);
          q.keyEvent(k);
          VCheck.emit("UNMASK", slot.getConfigureName(), masker, presser,
            Boolean.toString(maskOf(q).obscuredToOthers()));
        }
      }
    }
  }

  /** Lists each toolbar menu's items, then presses every Dice Button once. */
  static void dice() throws Exception {
    final GameModule g = GameModule.getGameModule();
    for (final VASSAL.build.module.ToolbarMenu m : g.getAllDescendantComponentsOf(VASSAL.build.module.ToolbarMenu.class)) {
      final java.lang.reflect.Field f = VASSAL.build.module.ToolbarMenu.class.getDeclaredField("buttonsToMenuMap");
      f.setAccessible(true);
      final List<String> items = new ArrayList<>();
      for (final Object mi : ((java.util.Map<?, ?>) f.get(m)).values()) items.add(((javax.swing.JMenuItem) mi).getText());
      Collections.sort(items);
      final List<String> rec = new ArrayList<>();
      rec.add("MENU");
      rec.add(String.valueOf(m.getAttributeValueString("text")));
      rec.addAll(items);
      VCheck.emit(rec.toArray(new String[0]));
    }
    final java.lang.reflect.Method dr = VASSAL.build.module.DiceButton.class.getDeclaredMethod("DR");
    dr.setAccessible(true);
    for (final VASSAL.build.module.DiceButton b : g.getAllDescendantComponentsOf(VASSAL.build.module.DiceButton.class)) {
      for (int i = 0; i < 24; i++) {
        VCheck.emit("ROLL", b.getConfigureName(), b.getAttributeValueString("nDice"), b.getAttributeValueString("nSides"));
        dr.invoke(b);
        VCheck.dumpChat();
      }
    }
  }

  /** For each slot with a Movement Trail: its menu command and key as VASSAL decoded them,
   *  and whether the trail shows before and after the key is pressed on a fresh piece. */
  static void trails() throws Exception {
    final GameModule g = GameModule.getGameModule();
    final java.lang.reflect.Field shown = Footprint.class.getDeclaredField("localVisibility");
    shown.setAccessible(true);
    final java.lang.reflect.Field key = Footprint.class.getDeclaredField("trailKey");
    key.setAccessible(true);
    final java.lang.reflect.Field menu = Footprint.class.getDeclaredField("menuCommand");
    menu.setAccessible(true);
    for (final PieceSlot slot : g.getAllDescendantComponentsOf(PieceSlot.class)) {
      if (slot.getPiece() == null) continue;
      final GamePiece p = PieceCloner.getInstance().clonePiece(slot.getPiece());
      final Footprint f = (Footprint) Decorator.getDecorator(p, Footprint.class);
      if (f == null) continue;
      final KeyStroke k = ((VASSAL.tools.NamedKeyStroke) key.get(f)).getKeyStroke();
      final boolean before = (Boolean) shown.get(f);
      final Map board = Map.getMapList().get(0);  // a trail is drawn on a map: put it on one
      board.placeAt(p, new Point(100, 100));
      p.keyEvent(k);
      board.removePiece(p);
      VCheck.emit("TRAIL", slot.getConfigureName(), String.valueOf(menu.get(f)),
        KeyStroke.getKeyStroke(k.getKeyCode(), k.getModifiers()).toString(),
        Boolean.toString(before), Boolean.toString((Boolean) shown.get(f)));
    }
  }

  /** Every piece on every map of the loaded save as the player of ``side`` sees it: the name
   *  VASSAL shows him, its map, whether a Mask hides it from him, and the location name. */
  static void seen(String side) {
    become(side);
    for (final Map m : Map.getMapList()) {
      for (final GamePiece top : m.getAllPieces()) {
        final List<GamePiece> inside = new ArrayList<>();
        if (top instanceof VASSAL.counters.Stack) inside.addAll(((VASSAL.counters.Stack) top).asList());
        else inside.add(top);
        for (final GamePiece p : inside) {
          final Obscurable o = maskOf(p);
          VCheck.emit("SEEN", String.valueOf(p.getName()), m.getMapName(),
            Boolean.toString(o != null && o.obscuredToMe()),
            String.valueOf(m.locationName(p.getPosition())));
        }
      }
    }
  }

  /** For the first unit slots with Send To Location traits: each command pressed by its key on
   *  a fresh piece standing on the first map, and where VASSAL put the piece. */
  static void sendTo() throws Exception {
    final GameModule g = GameModule.getGameModule();
    final java.lang.reflect.Field key = SendToLocation.class.getDeclaredField("key");
    key.setAccessible(true);
    final java.lang.reflect.Field name = SendToLocation.class.getDeclaredField("commandName");
    name.setAccessible(true);
    int done = 0;
    for (final PieceSlot slot : g.getAllDescendantComponentsOf(PieceSlot.class)) {
      if (slot.getPiece() == null || done >= 3) continue;
      final GamePiece proto = PieceCloner.getInstance().clonePiece(slot.getPiece());
      final List<SendToLocation> traits = new ArrayList<>();
      for (GamePiece q = proto; q instanceof Decorator; q = ((Decorator) q).getInner()) {
        if (q instanceof SendToLocation) traits.add((SendToLocation) q);
      }
      if (traits.isEmpty()) continue;
      done++;
      for (int i = 0; i < traits.size(); i++) {
        final GamePiece p = PieceCloner.getInstance().clonePiece(slot.getPiece());
        SendToLocation t = null;
        int k = 0;
        for (GamePiece q = p; q instanceof Decorator; q = ((Decorator) q).getInner()) {
          if (q instanceof SendToLocation && k++ == i) t = (SendToLocation) q;
        }
        final Map board = Map.getMapList().get(0);
        board.placeAt(p, new Point(100, 100));
        final KeyStroke ks = ((VASSAL.tools.NamedKeyStroke) key.get(t)).getKeyStroke();
        p.keyEvent(ks);
        final Map now = p.getMap();
        VCheck.emit("SENDTO", slot.getConfigureName(), String.valueOf(name.get(t)),
          KeyStroke.getKeyStroke(ks.getKeyCode(), ks.getModifiers()).toString(),
          now == null ? "" : now.getMapName(),
          now == null ? "" : String.valueOf(now.locationName(p.getPosition())));
        if (now != null) now.removePiece(p);
      }
    }
  }

  static KeyStroke decodeKey(String k) {
    final String[] f = k.split(",");
    return KeyStroke.getKeyStroke(Integer.parseInt(f[0]), Integer.parseInt(f[1]));
  }

  /** Every Global Property of the module as name=value, space-separated, in module order. */
  static String props() {
    final List<String> out = new ArrayList<>();
    for (final VASSAL.build.module.properties.GlobalProperty p : GameModule.getGameModule().getAllDescendantComponentsOf(VASSAL.build.module.properties.GlobalProperty.class)) {
      out.add(p.getConfigureName() + "=" + p.getPropertyValue());
    }
    return String.join(" ", out);
  }

  /** For up to ``perSide`` unit slots of each side whose counter has a Trigger: a fresh piece
   *  on the first map, then each of ``keys`` pressed in turn, the Global Properties read after
   *  each press (and before the first). */
  static void eliminate(int perSide, List<String> keys) {
    final GameModule g = GameModule.getGameModule();
    final java.util.Map<String, Integer> seen = new HashMap<>();
    for (final PieceSlot slot : g.getAllDescendantComponentsOf(PieceSlot.class)) {
      if (!(slot.getPiece() instanceof TriggerAction)) continue;  // a unit's own Trigger, outermost
      final String side = String.valueOf(slot.getPiece().getProperty("Side"));
      if (seen.merge(side, 1, Integer::sum) > perSide) continue;
      final GamePiece p = PieceCloner.getInstance().clonePiece(slot.getPiece());
      final Map board = Map.getMapList().get(0);
      board.placeAt(p, new Point(100, 100));
      VCheck.emit("ELIM", slot.getConfigureName(), side, "0", "-", board.getMapName(),
        String.valueOf(board.locationName(p.getPosition())), props());
      int step = 0;
      for (final String k : keys) {
        p.keyEvent(decodeKey(k));
        final Map now = p.getMap();
        VCheck.emit("ELIM", slot.getConfigureName(), side, Integer.toString(++step), k,
          now == null ? "" : now.getMapName(),
          now == null ? "" : String.valueOf(now.locationName(p.getPosition())), props());
        VCheck.dumpChat();
      }
      if (p.getMap() != null) p.getMap().removePiece(p);
    }
  }

  /** For up to ``perSide`` unit slots of each side whose counter has the Layer ``layer``: a
   *  fresh piece on the first map, then each of ``keys`` pressed in turn; after each press
   *  (and before the first) the Layer's level and image, and the counter drawn to a PNG. */
  static void faces(int perSide, List<String> keys, String layer, File outDir) throws Exception {
    final GameModule g = GameModule.getGameModule();
    final java.util.Map<String, Integer> seen = new HashMap<>();
    for (final PieceSlot slot : g.getAllDescendantComponentsOf(PieceSlot.class)) {
      if (slot.getPiece() == null || slot.getPiece().getProperty(layer + "_Level") == null) continue;
      final String side = String.valueOf(slot.getPiece().getProperty("Side"));
      if (seen.merge(side, 1, Integer::sum) > perSide) continue;
      final GamePiece p = PieceCloner.getInstance().clonePiece(slot.getPiece());
      final Map board = Map.getMapList().get(0);
      board.placeAt(p, new Point(100, 100));
      int step = 0;
      String key = "-";
      while (true) {
        final Rectangle r = p.boundingBox();
        final BufferedImage img = new BufferedImage(r.width, r.height, BufferedImage.TYPE_INT_ARGB);
        final Graphics2D gg = img.createGraphics();
        p.draw(gg, -r.x, -r.y, board.getView(), 1.0);
        gg.dispose();
        final File f = new File(outDir, slot.getConfigureName().split(" ")[0] + "-" + step + ".png");
        javax.imageio.ImageIO.write(img, "png", f);
        VCheck.emit("FACE", slot.getConfigureName(), Integer.toString(step), key,
          String.valueOf(p.getProperty(layer + "_Level")), String.valueOf(p.getProperty(layer + "_Image")),
          f.getPath());
        if (step == keys.size() || p.getMap() == null) break;
        key = keys.get(step++);
        p.keyEvent(decodeKey(key));
      }
      if (p.getMap() != null) p.getMap().removePiece(p);
    }
  }

  /** The palette counter ``slotName`` on the first map, each of ``keys`` pressed in turn. */
  static void trackKeys(String slotName, List<String> keys) {
    for (final PieceSlot slot : GameModule.getGameModule().getAllDescendantComponentsOf(PieceSlot.class)) {
      if (!slotName.equals(slot.getConfigureName())) continue;
      final GamePiece p = PieceCloner.getInstance().clonePiece(slot.getPiece());
      final Map board = Map.getMapList().get(0);
      board.placeAt(p, new Point(100, 100));
      VCheck.emit("TKEY", slotName, "-", props());
      for (final String k : keys) {
        p.keyEvent(decodeKey(k));
        VCheck.emit("TKEY", slotName, k, props());
        VCheck.dumpChat();
      }
      board.removePiece(p);
      return;
    }
    VCheck.problem("trackkeys", "no palette counter named '" + slotName + "'");
  }

  /** Every slot with a Return to Deck: a fresh piece on the first map, its key pressed. */
  static void cups() throws Exception {
    final java.lang.reflect.Field key = ReturnToDeck.class.getDeclaredField("returnKey");
    key.setAccessible(true);
    final java.lang.reflect.Field name = ReturnToDeck.class.getDeclaredField("returnCommand");
    name.setAccessible(true);
    for (final PieceSlot slot : GameModule.getGameModule().getAllDescendantComponentsOf(PieceSlot.class)) {
      if (slot.getPiece() == null) continue;
      final GamePiece p = PieceCloner.getInstance().clonePiece(slot.getPiece());
      final ReturnToDeck t = (ReturnToDeck) Decorator.getDecorator(p, ReturnToDeck.class);
      if (t == null) continue;
      final Map board = Map.getMapList().get(0);
      board.placeAt(p, new Point(100, 100));
      final KeyStroke ks = ((VASSAL.tools.NamedKeyStroke) key.get(t)).getKeyStroke();
      p.keyEvent(ks);
      final VASSAL.counters.Stack parent = p.getParent();
      final boolean inDeck = parent instanceof Deck;
      VCheck.emit("CUP", slot.getConfigureName(), String.valueOf(name.get(t)),
        KeyStroke.getKeyStroke(ks.getKeyCode(), ks.getModifiers()).toString(),
        inDeck ? ((Deck) parent).getDeckName() : "", Boolean.toString(inDeck));
      if (inDeck) ((Deck) parent).remove(p);
      else if (p.getMap() != null) p.getMap().removePiece(p);
    }
  }

  /** Presses every +1 and -1 button of each Global Property (the -1 twice, so the second
   *  press meets the bound of a track that starts at its minimum), reading the value after
   *  each press; then reads the labels of the palette counter ``slotName``. */
  static void tracks(String slotName) throws Exception {
    final GameModule g = GameModule.getGameModule();
    for (final VASSAL.build.module.properties.GlobalProperty p : g.getAllDescendantComponentsOf(VASSAL.build.module.properties.GlobalProperty.class)) {
      VCheck.emit("PROP", p.getConfigureName(), p.getPropertyValue());
      final List<VASSAL.build.module.properties.ChangePropertyButton> presses = new ArrayList<>();
      for (final VASSAL.build.module.properties.ChangePropertyButton b : p.getComponentsOf(VASSAL.build.module.properties.ChangePropertyButton.class)) {
        if (b.getPropertyChanger() instanceof VASSAL.build.module.properties.IncrementProperty) presses.add(b);
      }
      if (!presses.isEmpty()) presses.add(presses.get(presses.size() - 1));
      for (final VASSAL.build.module.properties.ChangePropertyButton b : presses) {
        b.launch();
        VCheck.emit("PRESS", b.getConfigureName(), p.getConfigureName(), p.getPropertyValue());
        VCheck.dumpChat();
      }
    }
    for (final PieceSlot slot : g.getAllDescendantComponentsOf(PieceSlot.class)) {
      if (!slotName.equals(slot.getConfigureName())) continue;
      final GamePiece piece = PieceCloner.getInstance().clonePiece(slot.getPiece());
      for (GamePiece q = piece; q instanceof Decorator; q = ((Decorator) q).getInner()) {
        if (q instanceof Labeler) VCheck.emit("LABEL", slotName, ((Labeler) q).getLabel());
      }
    }
  }

  /** Each Turn Tracker of the loaded save ``source``: its levels and its state (see TURN). */
  static void turns(String source) {
    for (final VASSAL.build.module.turn.TurnTracker t
        : GameModule.getGameModule().getAllDescendantComponentsOf(VASSAL.build.module.turn.TurnTracker.class)) {
      final List<String> levels = new ArrayList<>();
      for (final VASSAL.build.module.turn.TurnLevel l : t.getAllDescendantComponentsOf(VASSAL.build.module.turn.TurnLevel.class)) {
        levels.add(l.getClass().getSimpleName() + ":" + l.getConfigureName());
      }
      VCheck.emit("TURN", source, String.valueOf(t.getConfigureName()), String.join(",", levels), t.getState());
    }
  }

  /** Draws ``mapName`` as the player sees it at 100 %: its boards, then its pieces. */
  static void picture(String source, String mapName, File outFile) throws Exception {
    for (final Map m : Map.getMapList()) {
      if (!m.getMapName().equals(mapName)) continue;
      if (m.getZoomer() != null) m.getZoomer().setZoomFactor(1.0);  // 100 %, as the board image
      final Dimension d = m.mapSize();
      final BufferedImage img = new BufferedImage(d.width, d.height, BufferedImage.TYPE_INT_RGB);
      final Graphics2D gg = img.createGraphics();
      gg.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
      gg.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      gg.setColor(Color.WHITE);
      gg.fillRect(0, 0, d.width, d.height);
      for (final Board b : m.getBoards()) {
        final Rectangle bb = b.bounds();
        final Image bi = VCheck.boardOp(b) == null ? null : VCheck.boardOp(b).getImage();
        if (bi == null) VCheck.problem("board-image", b.getName() + ": no image to draw");
        else gg.drawImage(bi, bb.x, bb.y, null);
      }
      m.drawPiecesInRegion(gg, new Rectangle(0, 0, d.width, d.height), m.getView());
      gg.dispose();
      javax.imageio.ImageIO.write(img, "png", outFile);
      VCheck.emit("PICTURE", source, mapName, outFile.getPath(), Integer.toString(d.width), Integer.toString(d.height));
      return;
    }
    VCheck.problem("picture", "no map named '" + mapName + "'");
  }

  // ---- the EDT runner and a save's load, as the checker's (VCheck.onEdt, VCheck.loadSave),
  // without their fixed sleeps: VCheck.onEdt drains the EDT with 3 x (invokeAndWait + 100 ms)
  // after each step, 4 steps a save, and VCheck.finish sleeps 500 ms (about three quarters of
  // a run's wall was sleeping, the JVM idle). VPlay settles instead: it waits until VASSAL's
  // queued work is done, and no longer.

  /** A step longer than this is a problem ("timeout"), as in VCheck.onEdt. */
  static final long STEP_SECONDS = 300;
  /** How long {@link #settle} waits for a quiet event queue before going on (a step that keeps
   *  posting events, a Swing timer firing fast): the checker's drain waited 0.3 s in all. */
  static final long SETTLE_MS = 5000;

  /** Runs ``r`` on the EDT, as VCheck.onEdt does (its exception or a timeout is a problem
   *  record), then {@link #settle}s. */
  static void onEdt(java.util.concurrent.Callable<Void> r, String what) {
    final java.util.concurrent.FutureTask<Void> f = new java.util.concurrent.FutureTask<>(r);
    javax.swing.SwingUtilities.invokeLater(f);
    try {
      f.get(STEP_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
    }
    catch (java.util.concurrent.ExecutionException e) {
      final Throwable c = e.getCause();
      VCheck.problem("exception", what + ": " + c);
      c.printStackTrace();
    }
    catch (java.util.concurrent.TimeoutException e) {
      VCheck.problem("timeout", what + " did not finish in " + STEP_SECONDS + " s");
    }
    catch (InterruptedException e) {
      VCheck.problem("interrupted", what);
    }
    settle();
  }

  /** Waits until VASSAL's queued work is done: the EDT has run everything posted before
   *  (invokeAndWait) and the system event queue then holds no event, twice in a row, with no
   *  dialog showing. A dialog is left to the checker's watchdog (it looks every 150 ms, records
   *  the dialog as a problem, or the side-choice wizard as a note, and closes it): the settle
   *  waits until it is closed, so a dialog is still seen and still a problem. */
  static void settle() {
    final EventQueue q = Toolkit.getDefaultToolkit().getSystemEventQueue();
    final long end = System.nanoTime() + SETTLE_MS * 1_000_000L;
    int quiet = 0;
    while (quiet < 2 && System.nanoTime() < end) {
      try {
        javax.swing.SwingUtilities.invokeAndWait(() -> { });
        if (dialogShowing()) {
          quiet = 0;
          Thread.sleep(20);  // the watchdog's turn
        }
        else if (q.peekEvent() == null) quiet++;
        else {
          quiet = 0;
          Thread.sleep(1);  // more is queued (a resize's layout, a repaint): its turn, no spin
        }
      }
      catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      catch (java.lang.reflect.InvocationTargetException e) {
        VCheck.problem("exception", "settle: " + e.getCause());
      }
    }
  }

  static boolean dialogShowing() {
    for (final Window w : Window.getWindows()) {
      if (w instanceof Dialog && w.isShowing()) return true;
    }
    return false;
  }

  /** VASSAL's game closed, as VCheck.resetGame does, with {@link #onEdt}. */
  static void resetGame(String what) {
    onEdt(() -> {
      final VASSAL.build.module.GameState gs = GameModule.getGameModule().getGameState();
      gs.setModified(false);
      if (gs.isGameStarted()) {
        GameModule.getGameModule().setGameFileMode(GameModule.GameFileMode.NEW_GAME);
        gs.setup(false);
      }
      return null;
    }, "close game before " + what);
  }

  static boolean boardsDone = false;

  /** The save ``source`` loaded as VCheck.loadSave(source, bytes, false) loads it, with the
   *  same records: LOAD, the game reset, the save decoded (its undecodable lines named) and
   *  loaded as VASSAL's Open Game does (loadGameInForeground), a log stepped through as the
   *  Step button does, every piece listed (PIECE) and drawn, the boards' images read once a
   *  run (INFO board lines), the chat read; each step with {@link #onEdt}. */
  static void loadSave(String source) throws IOException {
    final byte[] bytes = Files.readAllBytes(Path.of(source));
    VCheck.emit("LOAD", source);
    resetGame(source);
    onEdt(() -> {
      final VASSAL.command.Command c = VCheck.decodeChecked(source, new ByteArrayInputStream(bytes));
      if (c != null) {
        final GameModule g = GameModule.getGameModule();
        g.getGameState().loadGameInForeground(source, new ByteArrayInputStream(bytes));
        if (!g.getGameState().isGameStarted()) {
          VCheck.problem("load", source + ": game not started after executing the save's command");
        }
      }
      return null;
    }, "load " + source);
    onEdt(() -> {
      final BasicLogger lg = (BasicLogger) GameModule.getGameModule().getLogger();
      final java.lang.reflect.Field f = BasicLogger.class.getDeclaredField("stepAction");
      f.setAccessible(true);
      int steps = 0;
      while (lg.hasMoreCommands() && steps < 100000) {
        ((javax.swing.Action) f.get(lg)).actionPerformed(null);
        steps++;
      }
      if (steps > 0) VCheck.emit("INFO", source + ": stepped through " + steps + " logged command(s)");
      return null;
    }, "replay " + source);
    onEdt(() -> {
      VCheck.listPieces(source);
      return null;
    }, "list " + source);
    if (!boardsDone) {
      boardsDone = true;
      onEdt(() -> {
        boards();
        return null;
      }, "boards");
    }
    VCheck.dumpChat();
  }

  /** Every board's image read, as VCheck.boardsAndHexes does with no hex asked. */
  static void boards() {
    for (final Map m : Map.getMapList()) {
      for (final Board b : m.getBoards()) {
        VCheck.emit("INFO", "board '" + b.getName() + "' on map '" + m.getMapName() + "' bounds " + b.bounds()
          + " grid " + (b.getGrid() == null ? "none" : b.getGrid().getClass().getSimpleName()));
        try {
          final VASSAL.tools.imageop.ImageOp op = VCheck.boardOp(b);
          if (op == null) VCheck.problem("board-image", b.getName() + ": board has no image op");
          else if (op.getImage() == null) VCheck.problem("board-image", b.getName() + ": no image");
        }
        catch (Throwable t) {
          VCheck.problem("board-image", b.getName() + ": " + t);
        }
      }
    }
  }

  /** The run's SUMMARY and exit status, as VCheck.finish gives them, after a {@link #settle}
   *  instead of its 500 ms sleep. */
  static void finish() {
    settle();
    VCheck.emit("SUMMARY", VCheck.problems.isEmpty() ? "OK" : "PROBLEMS", Integer.toString(VCheck.problems.size()));
    VCheck.out.flush();
    Runtime.getRuntime().halt(VCheck.problems.isEmpty() ? 0 : 1);
  }

  public static void main(String[] args) throws Exception {
    final String vmod = args[0];
    boolean doMasks = false;
    boolean doDice = false;
    String tracksSlot = null;
    boolean doTrails = false;
    String sendToSave = null;
    final List<String[]> pictures = new ArrayList<>();
    final List<String[]> seens = new ArrayList<>();
    final List<String> turnSaves = new ArrayList<>();
    String[] elim = null;
    String[] trackKeys = null;
    String cupsSave = null;
    String[] faceArgs = null;
    for (int i = 1; i < args.length; i++) {
      if (args[i].equals("--masks")) doMasks = true;
      else if (args[i].equals("--dice")) doDice = true;
      else if (args[i].equals("--tracks")) tracksSlot = args[++i];
      else if (args[i].equals("--trails")) doTrails = true;
      else if (args[i].equals("--sendto")) sendToSave = args[++i];
      else if (args[i].equals("--eliminate")) {
        elim = new String[] {args[i + 1], args[i + 2], args[i + 3]};
        i += 3;
      }
      else if (args[i].equals("--trackkeys")) {
        trackKeys = new String[] {args[i + 1], args[i + 2], args[i + 3]};
        i += 3;
      }
      else if (args[i].equals("--cups")) cupsSave = args[++i];
      else if (args[i].equals("--faces")) {
        faceArgs = new String[] {args[i + 1], args[i + 2], args[i + 3], args[i + 4], args[i + 5]};
        i += 5;
      }
      else if (args[i].equals("--seen")) {
        seens.add(new String[] {args[i + 1], args[i + 2]});
        i += 2;
      }
      else if (args[i].equals("--turns")) turnSaves.add(args[++i]);
      else if (args[i].equals("--picture")) {
        pictures.add(new String[] {args[i + 1], args[i + 2], args[i + 3]});
        i += 3;
      }
      else throw new IllegalArgumentException("unknown argument " + args[i]);
    }
    Info.setConfig(new StandardConfig());
    final StartUp start = new StartUp();
    start.startErrorLog();
    start.initSystemProperties();
    {
      final Class<?> pmm = Class.forName("VASSAL.launch.Player$PlayerMenuManager");
      final java.lang.reflect.Constructor<?> k = pmm.getDeclaredConstructor();
      k.setAccessible(true);
      k.newInstance();
    }
    Thread.setDefaultUncaughtExceptionHandler((th, e) -> {
      VCheck.problem("uncaught", th.getName() + ": " + e);
      e.printStackTrace();
    });
    VCheck.startDialogWatchdog();
    final File mf = new File(vmod);
    onEdt(() -> {
      GameModule.init(new GameModule(new DataArchive(mf.getPath())));
      Localization.getInstance().translate();
      final GameModule g = GameModule.getGameModule();
      g.getPrefs().setValue(GameModule.REAL_NAME, "oracle");
      g.getPrefs().setValue(GameModule.SECRET_NAME, "oracle");
      g.getPrefs().setValue(BasicLogger.PROMPT_NEW_LOG_START, Boolean.FALSE);
      g.getPrefs().setValue(BasicLogger.PROMPT_NEW_LOG_END, Boolean.FALSE);
      g.getPrefs().setValue(SaveMetaData.PROMPT_LOG_COMMENT, Boolean.FALSE);
      return null;
    }, "GameModule.init");
    final GameModule g = GameModule.getGameModule();
    final List<String> sides = new ArrayList<>(g.getPlayerRoster().getSides());
    VCheck.emit("SIDES", String.join("\t", sides));
    if (doMasks) {
      VCheck.emit("PART", "masks");
      onEdt(() -> {
        masks(sides);
        return null;
      }, "masks");
    }
    try {
      if (doDice) {
        VCheck.emit("PART", "dice");
        onEdt(() -> {
          dice();
          return null;
        }, "dice");
      }
      // before any save is loaded: the properties read first are the module's own
      if (tracksSlot != null) {
        final String slotName = tracksSlot;
        VCheck.emit("PART", "tracks");
        onEdt(() -> {
          tracks(slotName);
          return null;
        }, "tracks");
      }
      if (doTrails) {
        VCheck.emit("PART", "trails");
        onEdt(() -> {
          trails();
          return null;
        }, "trails");
      }
      if (sendToSave != null) {
        final String sv = sendToSave;
        VCheck.emit("PART", "sendto");
        loadSave(sv);  // a game: the maps' boards
        onEdt(() -> {
          sendTo();
          return null;
        }, "sendto");
      }
      if (elim != null) {
        final String[] e = elim;
        VCheck.emit("PART", "eliminate");
        loadSave(e[0]);
        onEdt(() -> {
          eliminate(Integer.parseInt(e[1]), Arrays.asList(e[2].split(";")));
          return null;
        }, "eliminate");
      }
      if (trackKeys != null) {
        final String[] e = trackKeys;
        VCheck.emit("PART", "trackkeys");
        loadSave(e[0]);
        onEdt(() -> {
          trackKeys(e[1], Arrays.asList(e[2].split(";")));
          return null;
        }, "trackkeys");
      }
      if (cupsSave != null) {
        final String sv = cupsSave;
        VCheck.emit("PART", "cups");
        loadSave(sv);
        onEdt(() -> {
          cups();
          return null;
        }, "cups");
      }
      if (faceArgs != null) {
        final String[] e = faceArgs;
        VCheck.emit("PART", "faces");
        loadSave(e[0]);
        onEdt(() -> {
          faces(Integer.parseInt(e[1]), Arrays.asList(e[2].split(";")), e[3], new File(e[4]));
          return null;
        }, "faces");
      }
      for (final String[] sv : seens) {
        VCheck.emit("PART", "seen", sv[0]);
        loadSave(sv[0]);
        onEdt(() -> {
          seen(sv[1]);
          return null;
        }, "seen " + sv[0]);
      }
      for (final String sv : turnSaves) {
        VCheck.emit("PART", "turns", sv);
        loadSave(sv);
        onEdt(() -> {
          turns(sv);
          return null;
        }, "turns " + sv);
      }
      for (final String[] pic : pictures) {
        VCheck.emit("PART", "picture", pic[0]);
        loadSave(pic[0]);
        onEdt(() -> {
          picture(pic[0], pic[1], new File(pic[2]));
          return null;
        }, "picture " + pic[0]);
      }
      resetGame("exit");
    }
    catch (Throwable t) {
      VCheck.problem("uncaught", "main: " + t);
    }
    finally {
      finish();
    }
  }
}
