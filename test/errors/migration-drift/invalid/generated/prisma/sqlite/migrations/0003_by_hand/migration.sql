CREATE INDEX "Book_editorId_idx" ON "Book"("editorId");
