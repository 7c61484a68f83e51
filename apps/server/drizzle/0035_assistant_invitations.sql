CREATE TABLE "assistant_invitations" (
	"invitation_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "assistant_invitations_invitation_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"doctor_user_id" integer NOT NULL,
	"assistant_user_id" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assistant_invitations" ADD CONSTRAINT "assistant_invitations_doctor_user_id_users_user_id_fk" FOREIGN KEY ("doctor_user_id") REFERENCES "public"."users"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assistant_invitations" ADD CONSTRAINT "assistant_invitations_assistant_user_id_users_user_id_fk" FOREIGN KEY ("assistant_user_id") REFERENCES "public"."users"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assistant_invitations_doctor_sent_idx" ON "assistant_invitations" USING btree ("doctor_user_id","sent_at");