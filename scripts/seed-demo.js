'use strict';

// Fills an empty database with what a photography studio that writes in Indonesian publishes, so a
// newcomer sees the product: Indonesian articles (and three English ones, which the README's tour
// uses), the studio's categories, photos with their AVIF/WebP renditions, BlurHash, colour and
// camera data (photo-like images made here, as the benchmark makes them), a scheduled draft, a
// draft, and an article whose slug moved (its old address answers 301). Writes go through the
// Document Service and the Media Library's own services, like the admin's, so every default,
// index and photo hook applies.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { compileStrapi, createStrapi } = require('@strapi/strapi');
const { cameraJpeg } = require('../bench/lib/photo-like');

const CATEGORIES = ['Pernikahan', 'Prewedding', 'Potret', 'Lanskap', 'Produk', 'Di Balik Layar'];

/** [category, title, tags, content, photos: cover + gallery count] — the order they were published in. */
const ARTICLES = [
  [
    'Pernikahan',
    'Ten minutes of golden hour',
    'Wedding, Golden hour, Outdoor',
    'The best wedding portraits happen in the ten minutes before sunset.\n\n## Plan for it\n\nAsk the couple to keep a **quiet slot** free and walk somewhere with open sky.',
    0,
  ],
  [
    'Pernikahan',
    'Rain on the wedding day',
    'Wedding, Rain, Umbrellas',
    'Rain is not a disaster. Clear umbrellas, reflections in puddles and a covered porch turn a wet day into the most memorable gallery of the season.',
    0,
  ],
  [
    'Di Balik Layar',
    'How we edit a wedding gallery',
    'Editing, Workflow, Wedding',
    'From 3,000 frames to 400 finished images in two weeks: culling, colour, and the final check on a calibrated screen.',
    0,
  ],
  [
    'Lanskap',
    'Kabut pagi di Dieng',
    'Lanskap, Kabut, Fajar',
    'Setiap musim kemarau, lembah Dieng dipenuhi kabut tipis sebelum matahari terbit. Kami memotret dari bukit Sikunir dengan lensa tele panjang, menunggu lapisan kabut terpisah satu per satu.\n\n## Persiapan\n\n- Tiba satu jam sebelum fajar\n- Tripod yang kokoh\n- Baju hangat: suhu bisa turun sampai 5 °C',
    1,
  ],
  [
    'Pernikahan',
    'Lensa makro untuk detail cincin pernikahan',
    'Pernikahan, Detail, Lensa',
    'Cincin, undangan, dan bunga tangan menceritakan hari pernikahan sama kuatnya dengan wajah pengantin. Dengan lensa makro 100 mm kami memotret detail itu dari jarak sejengkal, dengan cahaya jendela yang lembut.\n\nLensanya kami pasang di tripod kecil, dan fokus kami geser manual sampai ukiran cincin terlihat tajam.',
    3,
  ],
  [
    'Potret',
    'Memfoto potret dengan satu lampu studio',
    'Potret, Studio, Pencahayaan',
    'Satu softbox di sudut empat puluh lima derajat dan sebuah reflektor sudah cukup untuk potret yang menawan.\n\n1. Softbox tinggi di samping\n2. Reflektor di seberang\n3. Latar gelap\n\nKami memfoto setiap klien dengan susunan ini sebelum mencoba yang lain.',
    1,
  ],
  [
    'Prewedding',
    'Pemotretan pranikah di pantai saat senja',
    'Pranikah, Pantai, Senja',
    'Pemotretan pranikah di pantai paling indah dalam dua puluh menit sebelum matahari terbenam. Pasangan berjalan di garis ombak, dan kami memotret dari arah laut agar langit jingga mengisi latar.\n\nBawa handuk dan sandal cadangan: ombak selalu lebih tinggi dari dugaan.',
    3,
  ],
  [
    'Potret',
    'Potret keluarga yang terasa alami',
    'Potret, Keluarga',
    'Potret keluarga terbaik lahir dari percakapan, bukan dari pose. Kami mengajak anak-anak bermain, orang tua bercerita, dan di antara tawa itu ekspresi yang jujur muncul.',
    1,
  ],
  [
    'Produk',
    'Foto produk kopi untuk toko daring',
    'Produk, Kopi, Toko daring',
    'Foto produk yang menjual bercerita tentang rasa. Untuk sebuah kedai kopi di Bandung kami memotret biji kopi, cangkir, dan uap panasnya dengan cahaya samping yang hangat.',
    1,
  ],
  [
    'Lanskap',
    'Bima Sakti di atas Danau Toba',
    'Lanskap, Malam, Astro',
    'Bulan baru, lensa lebar f/2.8, dan eksposur dua puluh detik: dari akhir musim semi galaksi terbit di atas air Danau Toba.',
    1,
  ],
  [
    'Pernikahan',
    'Tips memotret pernikahan saat hujan',
    'Pernikahan, Hujan, Tips',
    'Hujan bukan bencana bagi fotografer pernikahan. Payung transparan, pantulan di genangan, dan teras yang teduh mengubah hari basah menjadi galeri yang paling diingat. Pernikahannya tetap berjalan, dan fotonya justru lebih hidup.',
    1,
  ],
];

/** A photo-like camera JPEG (with camera data, GPS included: the upload hooks remove what is private). */
async function photoFile(folder, name, seed) {
  const file = path.join(folder, name);
  fs.writeFileSync(file, await cameraJpeg(1200, 800, seed));
  return { filepath: file, originalFilename: name, mimetype: 'image/jpeg', size: fs.statSync(file).size };
}

async function uploadPhotos(strapi, folder, title, count, seed) {
  const upload = strapi.plugin('upload').service('upload');
  const ids = [];
  for (let n = 0; n < count; n += 1) {
    const name = `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${n + 1}.jpg`;
    const [file] = await upload.upload({
      data: { fileInfo: { name, alternativeText: `${title} (${n + 1})`, caption: title } },
      files: await photoFile(folder, name, seed + n),
    });
    ids.push(file.id);
  }
  return ids;
}

async function main() {
  const appDir = path.resolve(__dirname, '..');
  // The test suites' own build when they run this (tests/helpers/global-setup.ts), else dist/.
  const distDir = process.env.ARTIKEL_DIST_DIR || path.join(appDir, 'dist');
  if (!fs.existsSync(path.join(distDir, 'src', 'plugins', 'artikel', 'server', 'src', 'index.js'))) {
    await compileStrapi({ appDir });
  }
  const strapi = await createStrapi({ appDir, distDir }).load();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-demo-'));
  try {
    const articles = strapi.documents('api::article.article');
    const existing = await articles.count({});
    if (existing > 0) {
      strapi.log.info(`Demo data: the database already holds ${existing} articles; nothing added.`);
      return;
    }
    const categoryIds = {};
    for (const name of CATEGORIES) {
      const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      categoryIds[name] = (await strapi.documents('api::category.category').create({ data: { name, slug } })).documentId;
    }
    let photos = 0;
    for (const [index, [category, title, tags, content, photoCount]] of ARTICLES.entries()) {
      const ids = photoCount === 0 ? [] : await uploadPhotos(strapi, folder, title, photoCount, 1000 + index * 10);
      photos += ids.length;
      const media = ids.length === 0 ? {} : { cover: ids[0], ...(ids.length > 1 ? { gallery: ids.slice(1) } : {}) };
      await articles.create({ data: { title, tags, content, category: categoryIds[category], ...media }, status: 'published' });
    }
    // A moved article: published under one slug, then given a better one; the old one answers 301.
    const moved = await articles.create({
      data: {
        title: 'Isi tas kamera kami untuk satu hari penuh',
        slug: 'tas-kamera-kami',
        tags: 'Peralatan, Alur kerja',
        content: 'Dua bodi kamera, tiga lensa fix, satu lampu kilat, dan banyak baterai. Sisanya tinggal di mobil.',
        category: categoryIds['Di Balik Layar'],
      },
      status: 'published',
    });
    await articles.update({ documentId: moved.documentId, data: { slug: 'isi-tas-kamera-kami' } });
    await articles.publish({ documentId: moved.documentId });
    // A draft scheduled to go live in a week, and a plain draft.
    await articles.create({
      data: {
        title: 'Promo sesi foto wisuda',
        tags: 'Promo, Wisuda',
        content: 'Sesi foto wisuda di studio dengan harga khusus selama bulan depan.',
        category: categoryIds.Potret,
        publish_at: new Date(Date.now() + 7 * 24 * 60 * 60 * 1000).toISOString(),
      },
      status: 'draft',
    });
    await articles.create({
      data: {
        title: 'Draf: sesi mini akhir tahun',
        slug: 'sesi-mini-akhir-tahun',
        content: 'Belum diumumkan.',
        category: categoryIds.Potret,
      },
      status: 'draft',
    });
    // Every photo's AVIF and WebP renditions, made before the command ends (the queue would finish them after).
    const report = await strapi
      .plugin('artikel')
      .service('stored-photos')
      .processAll({ dryRun: false, again: false, progress: () => undefined });
    strapi.log.info(
      `Demo data: added ${CATEGORIES.length} categories, ${ARTICLES.length + 1} published articles (one moved from /api/artikel/tas-kamera-kami), ` +
        `1 scheduled draft, 1 draft and ${photos} photos (${report.rendered} given AVIF and WebP renditions).`,
    );
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
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
