-- The two name sort indexes again (0013), also carrying what tells a search's branches apart:
-- a search over all doctors takes each case once, from the first branch that finds it
-- (doctor, first name, surname, tracking number; find-cases.ts searchMatches), and the name
-- branches leave out the earlier branches' cases from these indexes alone, where a UNION
-- had to hash every match to drop the duplicates.
DROP INDEX "cases_first_name_sort_idx";--> statement-breakpoint
DROP INDEX "cases_last_name_sort_idx";--> statement-breakpoint
CREATE INDEX "cases_first_name_sort_idx" ON "cases" USING btree ("first_name","case_id") INCLUDE ("created_at","status","doctor_user_id");--> statement-breakpoint
CREATE INDEX "cases_last_name_sort_idx" ON "cases" USING btree ("last_name","case_id") INCLUDE ("created_at","status","doctor_user_id","first_name");
