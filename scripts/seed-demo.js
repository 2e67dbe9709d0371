'use strict';

// Fills an empty database with a few categories and articles, so a newcomer sees a living API.
// Writes go through the Document Service, like the admin's, so every default and index applies.
const fs = require('node:fs');
const path = require('node:path');
const { compileStrapi, createStrapi } = require('@strapi/strapi');

const CATEGORIES = ['Weddings', 'Portraits', 'Landscapes', 'Behind the scenes'];

const ARTICLES = [
  [
    'Weddings',
    'Ten minutes of golden hour',
    'Wedding, Golden hour, Outdoor',
    'The best wedding portraits happen in the ten minutes before sunset.\n\n## Plan for it\n\nAsk the couple to keep a **quiet slot** free and walk somewhere with open sky.',
  ],
  [
    'Weddings',
    'Rain on the wedding day',
    'Wedding, Rain, Umbrellas',
    'Rain is not a disaster. Clear umbrellas, reflections in puddles and a covered porch turn a wet day into the most memorable gallery of the season.',
  ],
  [
    'Portraits',
    'Studio portraits with a single light',
    'Portrait, Studio, Lighting',
    'One softbox at forty-five degrees and a reflector are all a flattering portrait needs.\n\n- Softbox high and to the side\n- Reflector opposite\n- Dark background',
  ],
  [
    'Portraits',
    'Headshots that look like you',
    'Portrait, Headshot, Business',
    'A good headshot is a conversation. We talk, we laugh, and somewhere in between the real expression appears.',
  ],
  [
    'Landscapes',
    'Fog in the valley at dawn',
    'Landscape, Fog, Dawn, Outdoor',
    'Autumn mornings fill the valley with fog. Arrive an hour before sunrise, use a long lens and wait for the layers to separate.',
  ],
  [
    'Landscapes',
    'The Milky Way over the lake',
    'Landscape, Night, Astro',
    'A new moon, a wide lens at f/2.8 and twenty seconds: the galaxy rises over the water from late spring on.',
  ],
  [
    'Behind the scenes',
    'How we edit a wedding gallery',
    'Editing, Workflow, Wedding',
    'From 3,000 frames to 400 finished images in two weeks: culling, colour, and the final check on a calibrated screen.',
  ],
  [
    'Behind the scenes',
    'Our camera bag for a full day',
    'Gear, Workflow',
    'Two bodies, three primes, one flash and a lot of batteries. Everything else stays in the car.',
  ],
];

async function main() {
  const appDir = path.resolve(__dirname, '..');
  const distDir = path.join(appDir, 'dist');
  if (!fs.existsSync(path.join(distDir, 'src', 'plugins', 'artikel', 'server', 'src', 'index.js'))) {
    await compileStrapi({ appDir });
  }
  const strapi = await createStrapi({ appDir, distDir }).load();
  try {
    const existing = await strapi.documents('api::article.article').count({});
    if (existing > 0) {
      strapi.log.info(`Demo data: the database already holds ${existing} articles; nothing added.`);
      return;
    }
    const categoryIds = {};
    for (const name of CATEGORIES) {
      const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      const category = await strapi.documents('api::category.category').create({ data: { name, slug } });
      categoryIds[name] = category.documentId;
    }
    for (const [category, title, tags, content] of ARTICLES) {
      const slug = title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '');
      await strapi.documents('api::article.article').create({
        data: { title, slug, tags, content, category: categoryIds[category] },
        status: 'published',
      });
    }
    await strapi.documents('api::article.article').create({
      data: {
        title: 'Draft: spring mini sessions',
        slug: 'spring-mini-sessions',
        content: 'Not announced yet.',
        category: categoryIds.Portraits,
      },
      status: 'draft',
    });
    strapi.log.info(`Demo data: added ${CATEGORIES.length} categories, ${ARTICLES.length} published articles and 1 draft.`);
  } finally {
    await strapi.destroy();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
