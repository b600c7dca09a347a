-- How far a task is as a count: done of total rows, domains or steps, written by the
-- worker at most every 250 ms; NULL until the task counts anything (and for tasks of before).
ALTER TABLE "tasks" ADD COLUMN "progress_done" bigint;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "progress_total" bigint;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "progress_unit" text;
