import Foundation
import GRDB

/// The journal's schema: GRDB migrations, and the version this build understands.
///
/// Documented column by column in `docs/DECISIONS.md` ("Schema"). A migration is never edited once
/// released; a change is a new migration and a new ``currentVersion``.
enum JournalSchema {
  /// The schema version this build writes and understands.
  static let currentVersion = 8

  /// The migrations, in order.
  static func migrator() -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.execute(
        sql: """
          CREATE TABLE meta (
            key TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
          ) WITHOUT ROWID;

          CREATE TABLE delivery (
            seq INTEGER PRIMARY KEY,
            at_ms INTEGER NOT NULL,
            bundle_id TEXT NOT NULL,
            source TEXT NOT NULL,
            diagnostics TEXT NOT NULL,
            notification_id INTEGER UNIQUE,
            disposition TEXT NOT NULL,
            surfaces TEXT NOT NULL,
            plays_sound INTEGER NOT NULL,
            decision_sound TEXT,
            decision_badge INTEGER,
            effective_level TEXT NOT NULL,
            held_until_ms INTEGER,
            replaces_id INTEGER,
            previews_hidden INTEGER NOT NULL,
            callbacks TEXT NOT NULL,
            reasons TEXT NOT NULL,
            group_bundle_id TEXT,
            group_thread TEXT,
            group_single INTEGER,
            group_rank INTEGER,
            rank_level REAL,
            rank_relevance REAL,
            rank_engagement REAL,
            rank_communication REAL,
            rank_recency REAL,
            is_stored INTEGER NOT NULL,
            removed_at_ms INTEGER,
            removal TEXT,
            thread_id TEXT,
            title TEXT,
            subtitle TEXT,
            body TEXT,
            category TEXT,
            level TEXT,
            relevance_score REAL,
            sound TEXT,
            badge INTEGER,
            content_available INTEGER,
            mutable_content INTEGER,
            target_content_id TEXT,
            filter_criteria TEXT,
            collapse_id TEXT,
            received_at_ms INTEGER,
            raw_payload TEXT,
            push_type TEXT,
            priority INTEGER,
            expiration_ms INTEGER,
            sender TEXT,
            custom_keys TEXT
          );
          CREATE INDEX delivery_in_center ON delivery(seq) WHERE is_stored = 1 AND removed_at_ms IS NULL;

          CREATE TABLE event (
            seq INTEGER PRIMARY KEY,
            at_ms INTEGER NOT NULL,
            kind TEXT NOT NULL,
            bundle_id TEXT,
            notification_id INTEGER,
            name TEXT,
            value TEXT
          );

          CREATE TABLE engagement (
            bundle_id TEXT PRIMARY KEY NOT NULL,
            taps INTEGER NOT NULL,
            dismissals INTEGER NOT NULL
          ) WITHOUT ROWID;

          CREATE TABLE badge (
            bundle_id TEXT PRIMARY KEY NOT NULL,
            count INTEGER NOT NULL
          ) WITHOUT ROWID;

          CREATE TABLE live_activity (
            position INTEGER PRIMARY KEY,
            bundle_id TEXT NOT NULL,
            attributes_type TEXT NOT NULL,
            attributes TEXT,
            content_state TEXT,
            title TEXT,
            body TEXT,
            started_at_ms INTEGER NOT NULL,
            last_timestamp REAL NOT NULL,
            stale_date_ms INTEGER,
            ended_at_ms INTEGER,
            dismissal_date_ms INTEGER,
            relevance_score REAL
          );

          CREATE TABLE device_state (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            now_ms INTEGER NOT NULL,
            is_locked INTEGER NOT NULL,
            active_focus_id TEXT
          );
          """)
    }
    // v2: the attachments a service extension added (JSON, thumbnails included), so a restored
    // device shows them again. NULL for none, and for every row written by version 1.
    migrator.registerMigration("v2") { db in
      try db.execute(sql: "ALTER TABLE delivery ADD COLUMN attachments TEXT")
    }
    // v3: a narrow delivery row. The columns people query stay; the rest are packed into
    // `detail` (``DeliveryDetail``), which a replay writes far more cheaply than version 2's
    // columns (docs/PERFORMANCE.md, Measurements behind the code).
    // Version 2 rows are copied, their other columns packed by an SQL function. Reason lists
    // that repeat are stored once, in `reason_list`, and a detail names them by id.
    migrator.registerMigration("v3") { db in
      let pack = DatabaseFunction("pushdeck_pack_detail_v2", argumentCount: DeliveryDetail.fields.count, pure: true) {
        values throws in
        let bytes = try DeliveryDetail.pack(values)
        return Data(bytes)
      }
      db.add(function: pack)
      defer { db.remove(function: pack) }
      try db.execute(
        sql: """
          ALTER TABLE delivery RENAME TO delivery_v2;
          CREATE TABLE delivery (
            seq INTEGER PRIMARY KEY,
            at_ms INTEGER NOT NULL,
            bundle_id TEXT NOT NULL,
            notification_id INTEGER UNIQUE,
            disposition TEXT NOT NULL,
            is_stored INTEGER NOT NULL,
            removed_at_ms INTEGER,
            removal TEXT,
            title TEXT,
            body TEXT,
            raw_payload TEXT,
            detail BLOB NOT NULL
          );
          INSERT INTO delivery(seq, at_ms, bundle_id, notification_id, disposition, is_stored, removed_at_ms,
            removal, title, body, raw_payload, detail)
          SELECT seq, at_ms, bundle_id, notification_id, disposition, is_stored, removed_at_ms, removal, title, body,
            raw_payload, pushdeck_pack_detail_v2(\(DeliveryDetail.fields.joined(separator: ", ")))
          FROM delivery_v2 ORDER BY seq;
          DROP TABLE delivery_v2;
          CREATE INDEX delivery_in_center ON delivery(seq) WHERE is_stored = 1 AND removed_at_ms IS NULL;
          CREATE TABLE reason_list (
            id INTEGER PRIMARY KEY,
            reasons TEXT NOT NULL
          );
          """)
    }
    // v4: a notification leaves Notification Center by a row of its own in `removal`, appended,
    // instead of an UPDATE of its old `delivery` row. In a replay those updates (a collapse
    // replaces an older notification every twentieth push) rewrote a random page of the table and
    // of two indexes each: two thirds of the WAL's frames. Version 3's removals are copied and
    // `delivery` is rebuilt without its two removal columns, as v3 rebuilt it: a copy works with
    // any SQLite (`DROP COLUMN` needs 3.35) and rewrites the table once, not once per column.
    // The view `in_center` lists what is still there. A later migration that renames or rebuilds
    // `delivery` drops the view first and creates it again (a rename rewrites the view's SQL).
    migrator.registerMigration("v4") { db in
      try db.execute(
        sql: """
          CREATE TABLE removal (
            notification_id INTEGER PRIMARY KEY,
            at_ms INTEGER NOT NULL,
            reason TEXT NOT NULL
          );
          INSERT OR IGNORE INTO removal(notification_id, at_ms, reason)
          SELECT notification_id, removed_at_ms, COALESCE(removal, 'removed') FROM delivery
          WHERE removed_at_ms IS NOT NULL AND notification_id IS NOT NULL ORDER BY seq;
          ALTER TABLE delivery RENAME TO delivery_v3;
          CREATE TABLE delivery (
            seq INTEGER PRIMARY KEY,
            at_ms INTEGER NOT NULL,
            bundle_id TEXT NOT NULL,
            notification_id INTEGER UNIQUE,
            disposition TEXT NOT NULL,
            is_stored INTEGER NOT NULL,
            title TEXT,
            body TEXT,
            raw_payload TEXT,
            detail BLOB NOT NULL
          );
          INSERT INTO delivery(seq, at_ms, bundle_id, notification_id, disposition, is_stored, title, body,
            raw_payload, detail)
          SELECT seq, at_ms, bundle_id, notification_id, disposition, is_stored, title, body, raw_payload, detail
          FROM delivery_v3 ORDER BY seq;
          DROP TABLE delivery_v3;
          CREATE INDEX delivery_in_center ON delivery(seq) WHERE is_stored = 1;
          CREATE VIEW in_center AS
          SELECT * FROM delivery d
          WHERE d.is_stored = 1
            AND NOT EXISTS (SELECT 1 FROM removal r WHERE r.notification_id = d.notification_id);
          """)
    }
    // v5: how far each replayed input has been saved, written in the same transaction as the
    // rows it accounts for, so a replay after a kill (or of the same capture again) continues
    // after its last saved line instead of delivering every line again. An input is known by its
    // path and a hash of its first `head_bytes` bytes (`docs/DECISIONS.md`, "Replay resumes").
    migrator.registerMigration("v5") { db in
      try db.execute(
        sql: """
          CREATE TABLE source_progress (
            id INTEGER PRIMARY KEY,
            path TEXT NOT NULL,
            head_bytes INTEGER NOT NULL,
            head_hash TEXT NOT NULL,
            line INTEGER NOT NULL,
            byte_offset INTEGER NOT NULL
          );
          """)
    }
    // v6: broadcast channels (iOS 18) and the Live Activity's channel and own push token. A
    // channel's stored message (policy 1) is kept in its row; the whole table is rewritten when
    // the channels change, as `live_activity` is.
    migrator.registerMigration("v6") { db in
      try db.execute(
        sql: """
          CREATE TABLE channel (
            position INTEGER PRIMARY KEY,
            id TEXT NOT NULL,
            bundle_id TEXT NOT NULL,
            storage_policy INTEGER NOT NULL,
            created_at_ms INTEGER NOT NULL,
            message_at_ms INTEGER,
            message_event TEXT,
            message_timestamp REAL,
            message_content_state TEXT,
            message_stale_date REAL,
            message_dismissal_date REAL,
            message_title TEXT,
            message_body TEXT
          );
          ALTER TABLE live_activity ADD COLUMN channel_id TEXT;
          ALTER TABLE live_activity ADD COLUMN push_token TEXT;
          """)
    }
    // v7: Settings ▸ Notifications ▸ Display As (count, stack or list), saved with the clock, lock
    // and Focus; NULL in a state saved before it was (the profile's then stands).
    migrator.registerMigration("v7") { db in
      try db.execute(sql: "ALTER TABLE device_state ADD COLUMN lock_screen_display TEXT")
    }
    // v8: a cheaper row to write. The partial index `delivery_in_center` is dropped: restore
    // scans `delivery` in `seq` order whether or not it is there (as fast without it: it read the
    // rows through the index one key at a time), and keeping it cost a replay three or four WAL
    // frames a batch. `removal` is rebuilt without a key, its rows in the order written: keyed by
    // notification id, every batch's removals (of notifications anywhere in the past) rewrote a
    // score of its pages. Restore and the view `in_center` read it with `NOT IN`, which SQLite
    // answers from a temporary index built once (a correlated `NOT EXISTS` would scan it per row);
    // the writer keeps each id's first removal. A `detail` is written in format 2 (``DeliveryDetail``): integers as
    // LEB128, whole doubles as integers, and the source as a path id and a line, the path stored
    // once in `source_file`. Rows of earlier versions keep format 1, which is still read; no row
    // is rewritten.
    migrator.registerMigration("v8") { db in
      try db.execute(
        sql: """
          DROP INDEX IF EXISTS delivery_in_center;
          DROP VIEW IF EXISTS in_center;
          ALTER TABLE removal RENAME TO removal_v7;
          CREATE TABLE removal (
            notification_id INTEGER NOT NULL,
            at_ms INTEGER NOT NULL,
            reason TEXT NOT NULL
          );
          INSERT INTO removal(notification_id, at_ms, reason)
          SELECT notification_id, at_ms, reason FROM removal_v7 ORDER BY notification_id;
          DROP TABLE removal_v7;
          CREATE VIEW in_center AS
          SELECT * FROM delivery d
          WHERE d.is_stored = 1 AND d.notification_id NOT IN (SELECT notification_id FROM removal);
          CREATE TABLE source_file (
            id INTEGER PRIMARY KEY,
            path TEXT NOT NULL
          );
          """)
    }
    return migrator
  }
}
