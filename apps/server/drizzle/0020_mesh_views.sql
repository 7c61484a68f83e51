CREATE TABLE "mesh_views" (
	"source_key" text PRIMARY KEY NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"view_key" text,
	"view_bytes" bigint,
	"triangles" integer,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "mesh_views_view_key_unique" UNIQUE("view_key"),
	CONSTRAINT "mesh_views_state_check" CHECK ("mesh_views"."state" in ('pending', 'ready', 'failed'))
);
