-- The uploads a user holds that no case has used yet, counted whenever they start another
-- (UPLOADS_PER_USER, UPLOAD_BYTES_PER_USER, issue 20), without reading every claimed one.
CREATE INDEX "uploads_open_user_idx" ON "uploads" USING btree ("user_id") WHERE "uploads"."claimed_by_case_id" is null;
