-- CreateTable
CREATE TABLE "Comment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "orgId" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "contact" TEXT,
    "stars" INTEGER NOT NULL DEFAULT 0,
    "tone" TEXT NOT NULL DEFAULT 'plain',
    "secret" TEXT
);

-- CreateTable
CREATE TABLE "Tag" (
    "id" TEXT NOT NULL PRIMARY KEY
);

-- CreateIndex
CREATE INDEX "Comment_tone_id_idx" ON "Comment"("tone", "id");
