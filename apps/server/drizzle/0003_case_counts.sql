CREATE TABLE "case_counts" (
	"doctor_user_id" integer NOT NULL,
	"status" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "case_counts_doctor_user_id_status_pk" PRIMARY KEY("doctor_user_id","status")
);
--> statement-breakpoint
CREATE INDEX "cases_doctor_created_idx" ON "cases" USING btree ("doctor_user_id","created_at","case_id");--> statement-breakpoint
-- Kept by trigger so no code path can forget it: insert, status change, doctor change, delete.
CREATE OR REPLACE FUNCTION "case_counts_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "case_counts" SET "count" = "count" - 1
      WHERE "doctor_user_id" = OLD."doctor_user_id" AND "status" = OLD."status";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "case_counts" ("doctor_user_id", "status", "count") VALUES (NEW."doctor_user_id", NEW."status", 1)
      ON CONFLICT ("doctor_user_id", "status") DO UPDATE SET "count" = "case_counts"."count" + 1;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "cases_count_insert_delete" AFTER INSERT OR DELETE ON "cases"
  FOR EACH ROW EXECUTE FUNCTION "case_counts_track"();
--> statement-breakpoint
CREATE TRIGGER "cases_count_update" AFTER UPDATE OF "status", "doctor_user_id" ON "cases"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."doctor_user_id" IS DISTINCT FROM NEW."doctor_user_id")
  EXECUTE FUNCTION "case_counts_track"();
--> statement-breakpoint
INSERT INTO "case_counts" ("doctor_user_id", "status", "count")
  SELECT "doctor_user_id", "status", count(*)::int FROM "cases" GROUP BY 1, 2;
