CREATE TABLE "stored_totals" (
	"kind" text PRIMARY KEY NOT NULL,
	"files" bigint NOT NULL,
	"bytes" bigint NOT NULL
);
--> statement-breakpoint
-- Written by hand: the two rows, counted once from what is stored, then kept by triggers.
INSERT INTO "stored_totals" ("kind", "files", "bytes")
SELECT 'original', count(*), coalesce(sum("file_size"), 0) FROM (
  SELECT "file_size" FROM "case_attachments"
  UNION ALL SELECT "file_size" FROM "case_message_files"
  UNION ALL SELECT "file_size" FROM "plan_stage_files"
) AS "originals";
--> statement-breakpoint
INSERT INTO "stored_totals" ("kind", "files", "bytes")
SELECT 'viewing_copy', count("view_bytes"), coalesce(sum("view_bytes"), 0) FROM "mesh_views";
--> statement-breakpoint
-- TG_ARGV: the row of stored_totals, then the column holding a file's bytes (null: nothing stored yet).
CREATE FUNCTION "stored_totals_track"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  before bigint := CASE WHEN TG_OP IN ('UPDATE', 'DELETE') THEN (to_jsonb(OLD) ->> TG_ARGV[1])::bigint END;
  after bigint := CASE WHEN TG_OP IN ('INSERT', 'UPDATE') THEN (to_jsonb(NEW) ->> TG_ARGV[1])::bigint END;
BEGIN
  IF before IS DISTINCT FROM after THEN
    UPDATE "stored_totals"
      SET "files" = "files" + (after IS NOT NULL)::int - (before IS NOT NULL)::int,
          "bytes" = "bytes" + coalesce(after, 0) - coalesce(before, 0)
      WHERE "kind" = TG_ARGV[0];
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "case_attachments_stored" AFTER INSERT OR DELETE OR UPDATE OF "file_size" ON "case_attachments"
  FOR EACH ROW EXECUTE FUNCTION "stored_totals_track"('original', 'file_size');
--> statement-breakpoint
CREATE TRIGGER "case_message_files_stored" AFTER INSERT OR DELETE OR UPDATE OF "file_size" ON "case_message_files"
  FOR EACH ROW EXECUTE FUNCTION "stored_totals_track"('original', 'file_size');
--> statement-breakpoint
CREATE TRIGGER "plan_stage_files_stored" AFTER INSERT OR DELETE OR UPDATE OF "file_size" ON "plan_stage_files"
  FOR EACH ROW EXECUTE FUNCTION "stored_totals_track"('original', 'file_size');
--> statement-breakpoint
CREATE TRIGGER "mesh_views_stored" AFTER INSERT OR DELETE OR UPDATE OF "view_bytes" ON "mesh_views"
  FOR EACH ROW EXECUTE FUNCTION "stored_totals_track"('viewing_copy', 'view_bytes');
