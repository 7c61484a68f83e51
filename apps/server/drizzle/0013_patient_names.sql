CREATE TABLE "patient_names" (
	"name" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
DROP INDEX "cases_first_name_sort_idx";--> statement-breakpoint
DROP INDEX "cases_last_name_sort_idx";--> statement-breakpoint
CREATE INDEX "patient_names_trgm_idx" ON "patient_names" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
-- The two name sort indexes again, carrying what a search's page needs (find-cases.ts): its
-- matches are counted and sorted newest first (or filtered by status) from the index alone.
CREATE INDEX "cases_first_name_sort_idx" ON "cases" USING btree ("first_name","case_id") INCLUDE ("created_at","status");--> statement-breakpoint
CREATE INDEX "cases_last_name_sort_idx" ON "cases" USING btree ("last_name","case_id") INCLUDE ("created_at","status");--> statement-breakpoint
-- Kept by trigger, as case_counts is (0003). A name no case has any more stays: it finds nothing.
-- Both names go in in their sort order, so two cases bringing the same two new names lock them
-- in the same order (no deadlock).
CREATE OR REPLACE FUNCTION "patient_names_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "patient_names" ("name")
    SELECT "name" FROM unnest(ARRAY[NEW."first_name", NEW."last_name"]) AS "names"("name") ORDER BY 1
    ON CONFLICT ("name") DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "cases_patient_names" AFTER INSERT OR UPDATE OF "first_name", "last_name" ON "cases"
  FOR EACH ROW EXECUTE FUNCTION "patient_names_track"();
--> statement-breakpoint
INSERT INTO "patient_names" ("name")
  SELECT "first_name" FROM "cases" UNION SELECT "last_name" FROM "cases";
