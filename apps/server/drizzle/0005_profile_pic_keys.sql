-- users.profile_pic holds the picture's storage key (users/<id>/<file>), no longer its
-- /api/uploads address: the routes build addresses for their answers.
UPDATE "users" SET "profile_pic" = substr("profile_pic", length('/api/uploads/') + 1)
WHERE "profile_pic" LIKE '/api/uploads/%';
