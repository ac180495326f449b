// Lets tests import text files (prompt templates) as strings, as the tsup build does with its
// `text` loader, so the code under test sees exactly what the published bundle embeds.
module.exports = {
  process(sourceText) {
    return { code: `module.exports = ${JSON.stringify(sourceText)};` };
  },
};
