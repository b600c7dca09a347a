CREATE TABLE "import_skipped_rows" (
	"task_id" text NOT NULL,
	"row" bigint NOT NULL,
	"reason" text NOT NULL,
	"email" text,
	CONSTRAINT "import_skipped_rows_task_id_row_pk" PRIMARY KEY("task_id","row")
);
--> statement-breakpoint
ALTER TABLE "import_skipped_rows" ADD CONSTRAINT "import_skipped_rows_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;