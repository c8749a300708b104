-- CreateEnum
CREATE TYPE "Tone" AS ENUM ('plain', 'loud');

-- CreateTable
CREATE TABLE "Comment" (
    "id" UUID NOT NULL,
    "orgId" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "contact" TEXT,
    "stars" INTEGER NOT NULL DEFAULT 0,
    "tone" "Tone" NOT NULL DEFAULT 'plain',
    "secret" TEXT,

    CONSTRAINT "Comment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Tag" (
    "id" UUID NOT NULL,

    CONSTRAINT "Tag_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Comment_tone_id_idx" ON "Comment"("tone", "id");
