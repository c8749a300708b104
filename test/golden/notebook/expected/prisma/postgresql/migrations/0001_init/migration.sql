-- CreateEnum
CREATE TYPE "Priority" AS ENUM ('low', 'high');

-- CreateTable
CREATE TABLE "Note" (
    "id" UUID NOT NULL,
    "notebookId" UUID NOT NULL,
    "text" TEXT NOT NULL,
    "priority" "Priority" NOT NULL DEFAULT 'low',
    "views" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Note_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Notebook" (
    "id" UUID NOT NULL,
    "ownerId" TEXT NOT NULL,
    "title" TEXT NOT NULL,

    CONSTRAINT "Notebook_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Note_notebookId_id_idx" ON "Note"("notebookId", "id");

-- AddForeignKey
ALTER TABLE "Note" ADD CONSTRAINT "Note_notebookId_fkey" FOREIGN KEY ("notebookId") REFERENCES "Notebook"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
