CREATE TABLE "case_status_totals" (
	"status" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "cases_status_sort_idx" ON "cases" USING btree ("status","case_id");--> statement-breakpoint
CREATE INDEX "cases_first_name_sort_idx" ON "cases" USING btree ("first_name","case_id");--> statement-breakpoint
CREATE INDEX "cases_last_name_sort_idx" ON "cases" USING btree ("last_name","case_id");--> statement-breakpoint
CREATE INDEX "cases_dob_sort_idx" ON "cases" USING btree ("dob","case_id");--> statement-breakpoint
CREATE INDEX "cases_gender_sort_idx" ON "cases" USING btree ("gender","case_id");--> statement-breakpoint
CREATE INDEX "cases_arches_sort_idx" ON "cases" USING btree ("arches","case_id");--> statement-breakpoint
CREATE INDEX "cases_nature_sort_idx" ON "cases" USING btree ("nature","case_id");--> statement-breakpoint
CREATE INDEX "cases_impression_type_sort_idx" ON "cases" USING btree ("impression_type","case_id");--> statement-breakpoint
CREATE INDEX "users_full_name_idx" ON "users" USING btree (("first_name" || ' ' || "last_name"));--> statement-breakpoint
INSERT INTO "case_status_totals" ("status", "count")
  SELECT s."status", (SELECT count(*)::int FROM "cases" c WHERE c."status" = s."status")
  FROM (VALUES ('new'), ('inprogress'), ('dispatched'), ('delivered')) s("status");
--> statement-breakpoint
-- As in 0003, and the totals: a status change moves one from its old row to its new one in a
-- single UPDATE, so two opposite changes at once lock the two rows in the same order (no deadlock).
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
  IF TG_OP = 'INSERT' THEN
    UPDATE "case_status_totals" SET "count" = "count" + 1 WHERE "status" = NEW."status";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "case_status_totals" SET "count" = "count" - 1 WHERE "status" = OLD."status";
  ELSIF OLD."status" IS DISTINCT FROM NEW."status" THEN
    UPDATE "case_status_totals"
      SET "count" = "count" + CASE WHEN "status" = NEW."status" THEN 1 ELSE -1 END
      WHERE "status" IN (OLD."status", NEW."status");
  END IF;
  RETURN NULL;
END;
$$;
