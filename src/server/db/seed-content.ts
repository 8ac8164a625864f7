import type { Language } from '../../engine/language';
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { MANUAL_ATTACHMENT_PURPOSE } from '../../engine/content-attachments';
import { indexContent } from '../lib/content-search';
import type { ContentKind, Database } from './schema';

// The demo event's content in four languages: manuals (mandatory ones to acknowledge),
// announcements (one pinned), FAQ in three categories, Home tips, the LeadGrab introduction and
// the support contacts. Made searchable as the organiser's console would.

type T = Record<Language, string>;
const t = (en: string, cn: string, ja: string, vi: string): T => ({ en, cn, ja, vi });

interface Item {
  kind: ContentKind;
  screen: string;
  title: T;
  body: T;
  description?: T;
  category?: T;
  mandatory?: boolean;
  ackRequired?: boolean;
  deadlineDays?: number;
  pinned?: boolean;
  publishedDays?: number;
  position?: number;
  /** A file attached to the manual (see demoAttachments). */
  attachment?: { id: string; name: string };
}

/** The demo's one attachment: the health and safety rules as a printable PDF (CT1). */
const SAFETY_RULES_PDF = { id: 'demo-health-and-safety-rules-afhe2027-00000', name: 'AFHE2027 health and safety rules.pdf' };

const SAFETY_RULES_LINES = [
  'ASEAN Food & Hospitality Expo 2027',
  'Health and safety rules for exhibitors and stand builders',
  '',
  '1. Stand builders need a valid safety training green card.',
  '2. Keep aisles clear at all times.',
  '3. No open flames anywhere in the halls.',
  '4. Electrical work only by the official contractor.',
  '5. Hot food sampling needs a fire extinguisher on the stand.',
  "6. Stands above 2.44 m need the organiser's approval (form S03).",
  '',
  'Questions: exhibitor-support@afhe-expo.example',
];

/** The demo's attachments and their bytes (made the same way each time, so the seed's size and hash hold). */
export async function demoAttachments(): Promise<Array<{ id: string; name: string; bytes: Buffer }>> {
  const pdf = await PDFDocument.create();
  const fixed = new Date('2026-01-01T00:00:00Z');
  pdf.setTitle('AFHE2027 health and safety rules');
  pdf.setCreationDate(fixed);
  pdf.setModificationDate(fixed);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  SAFETY_RULES_LINES.forEach((line, index) => page.drawText(line, { x: 56, y: 780 - index * 22, size: index < 2 ? 14 : 11, font }));
  return [{ ...SAFETY_RULES_PDF, bytes: Buffer.from(await pdf.save({ useObjectStreams: false })) }];
}

const BADGES = t('Badges', '证件', 'バッジ', 'Thẻ');
const BOOTH = t('Booth and construction', '展位与搭建', '小間と施工', 'Gian hàng và thi công');
const LEADS = t('Leads and scanning', '潜在客户与扫描', 'リードとスキャン', 'Khách hàng tiềm năng và quét thẻ');

const ITEMS: Item[] = [
  {
    kind: 'tip',
    screen: 'home',
    title: t('Before you start', '开始之前', 'はじめに', 'Trước khi bắt đầu'),
    body: t(
      'Complete the mandatory forms before their deadlines: your promotion profile appears in the show directory and your badges are printed from the badge list.',
      '请在截止日期前完成必填表格：您的推广资料将显示在展会名录中，证件将根据证件名单打印。',
      '締め切りまでに必須フォームを提出してください。プロモーションプロフィールは出展者名簿に掲載され、バッジはバッジリストから印刷されます。',
      'Hãy hoàn thành các biểu mẫu bắt buộc trước hạn chót: hồ sơ quảng bá sẽ xuất hiện trong danh bạ triển lãm và thẻ được in từ danh sách thẻ.',
    ),
  },
  {
    kind: 'tip',
    screen: 'home',
    title: t('Your team', '您的团队', 'チーム', 'Đội ngũ của bạn'),
    body: t(
      'Give each colleague and contractor their own login rather than sharing yours; you can see who changed what.',
      '请为每位同事和承建商分别开设登录账号，而不是共用您的账号；这样可以看到谁修改了什么。',
      '同僚や施工業者にはアカウントを共有せず、それぞれのログインを発行してください。誰が何を変更したか分かります。',
      'Hãy cấp cho mỗi đồng nghiệp và nhà thầu một tài khoản riêng thay vì dùng chung tài khoản của bạn; bạn sẽ biết ai đã thay đổi gì.',
    ),
  },
  {
    kind: 'manual',
    screen: 'manuals',
    mandatory: true,
    ackRequired: true,
    deadlineDays: 75,
    position: 1,
    title: t('Exhibitor manual 2027', '2027 参展商手册', '出展者マニュアル 2027', 'Sổ tay đơn vị triển lãm 2027'),
    description: t(
      'Move-in and move-out, stand construction, badges and on-site services.',
      '布展与撤展、展位搭建、证件及现场服务。',
      '搬入・搬出、小間の施工、バッジ、会場サービスについて。',
      'Dàn dựng và tháo dỡ, thi công gian hàng, thẻ và dịch vụ tại chỗ.',
    ),
    body: t(
      '## Move-in and move-out\n\nMove-in is on the two days before opening, **08:00–22:00**. Move-out starts one hour after the show closes on the last day.\n\n## Stand construction\n\nStand construction above **2.44 m** needs the organiser’s approval: give the height and upload the design in *Booth information* (S03).\n\n## Badges\n\nBadges are printed from your badge list (S04) and collected at the exhibitor registration counter in Hall 1.',
      '## 布展与撤展\n\n布展时间为开幕前两天 **08:00–22:00**。撤展于最后一天闭馆一小时后开始。\n\n## 展位搭建\n\n展位搭建高度超过 **2.44 米**需经主办方批准：请在“展位信息”（S03）中填写高度并上传设计图。\n\n## 证件\n\n证件根据您的证件名单（S04）打印，请在 1 号馆参展商登记处领取。',
      '## 搬入・搬出\n\n搬入は開幕前の2日間、**08:00～22:00** です。搬出は最終日の閉場1時間後から始まります。\n\n## 小間の施工\n\n高さ **2.44 m** を超える小間の施工には主催者の承認が必要です。「小間情報」（S03）で高さを入力し、デザインをアップロードしてください。\n\n## バッジ\n\nバッジはバッジリスト（S04）から印刷され、1号館の出展者受付で受け取れます。',
      '## Dàn dựng và tháo dỡ\n\nThời gian dàn dựng là hai ngày trước khai mạc, **08:00–22:00**. Tháo dỡ bắt đầu một giờ sau khi triển lãm đóng cửa ngày cuối.\n\n## Thi công gian hàng\n\nGian hàng cao trên **2,44 m** cần ban tổ chức phê duyệt: nhập chiều cao và tải bản thiết kế trong *Thông tin gian hàng* (S03).\n\n## Thẻ\n\nThẻ được in từ danh sách thẻ của bạn (S04) và nhận tại quầy đăng ký đơn vị triển lãm ở Hội trường 1.',
    ),
  },
  {
    kind: 'manual',
    screen: 'manuals',
    mandatory: true,
    ackRequired: true,
    deadlineDays: 60,
    position: 2,
    attachment: SAFETY_RULES_PDF,
    title: t('Health and safety rules', '健康与安全规定', '安全衛生規則', 'Quy định an toàn và sức khỏe'),
    description: t(
      'What every stand builder and exhibitor must follow on site.',
      '所有展位搭建商和参展商在现场必须遵守的规定。',
      '会場ですべての施工業者と出展者が守るべき規則。',
      'Những quy định mọi nhà thầu và đơn vị triển lãm phải tuân thủ tại chỗ.',
    ),
    body: t(
      'Stand builders need a valid **safety training green card**. Keep aisles clear at all times; no open flames; electrical work only by the official contractor. Hot food sampling needs a fire extinguisher on the stand.',
      '展位搭建商须持有有效的**安全培训绿卡**。通道须始终保持畅通；禁止明火；电气作业仅限指定承包商。现场加热试吃须在展位配备灭火器。',
      '施工業者は有効な**安全講習グリーンカード**が必要です。通路は常に空けておき、裸火は禁止、電気工事は指定業者のみが行います。温かい試食を行う小間には消火器を備えてください。',
      'Nhà thầu thi công cần **thẻ xanh huấn luyện an toàn** còn hiệu lực. Luôn giữ lối đi thông thoáng; không dùng lửa trần; công việc điện chỉ do nhà thầu chính thức thực hiện. Gian hàng có nếm thử món nóng phải có bình chữa cháy.',
    ),
  },
  {
    kind: 'manual',
    screen: 'manuals',
    position: 3,
    title: t('Logistics and freight guide', '物流与货运指南', '物流・輸送ガイド', 'Hướng dẫn hậu cần và vận chuyển'),
    description: t(
      'Shipping exhibits, customs and storage at the venue.',
      '展品运输、海关及场馆仓储。',
      '展示品の輸送、通関、会場での保管。',
      'Vận chuyển hàng trưng bày, hải quan và lưu kho tại địa điểm.',
    ),
    body: t(
      'Send exhibits through the official freight forwarder to clear customs under the show’s temporary import. Label each case with your company name and booth number. Empty cases are stored free of charge during the show.',
      '请通过指定货运代理发运展品，按展会临时进口办理清关。每个货箱请标明公司名称和展位号。展会期间空箱可免费存放。',
      '展示品は指定フォワーダーを通じて発送し、展示会の一時輸入で通関してください。各梱包に会社名と小間番号を表示してください。会期中、空き箱は無料で保管します。',
      'Gửi hàng trưng bày qua đơn vị giao nhận chính thức để thông quan theo diện tạm nhập của triển lãm. Ghi tên công ty và số gian hàng trên mỗi kiện. Thùng rỗng được lưu kho miễn phí trong thời gian triển lãm.',
    ),
  },
  {
    kind: 'manual',
    screen: 'manuals',
    position: 4,
    title: t('Marketing opportunities', '营销推广机会', 'マーケティングの機会', 'Cơ hội tiếp thị'),
    description: t(
      'Sponsorship, on-site advertising and the show directory.',
      '赞助、现场广告及展会名录。',
      'スポンサーシップ、会場広告、出展者名簿。',
      'Tài trợ, quảng cáo tại chỗ và danh bạ triển lãm.',
    ),
    body: t(
      'Your promotion profile (S01) feeds the online show directory and the mobile app. Banner spaces and product launch slots on the main stage can be booked with the sales team.',
      '您的推广资料（S01）将用于线上展会名录和移动应用。主舞台的横幅广告位和新品发布时段可向销售团队预订。',
      'プロモーションプロフィール（S01）はオンライン出展者名簿とモバイルアプリに掲載されます。メインステージのバナー枠や新製品発表枠は営業チームにご予約ください。',
      'Hồ sơ quảng bá (S01) của bạn được dùng cho danh bạ triển lãm trực tuyến và ứng dụng di động. Vị trí băng rôn và khung giờ ra mắt sản phẩm trên sân khấu chính có thể đặt với đội ngũ kinh doanh.',
    ),
  },
  {
    kind: 'announcement',
    screen: 'announcements',
    pinned: true,
    publishedDays: -10,
    title: t('Exhibitor briefing on 12 February', '2月12日参展商说明会', '2月12日 出展者説明会', 'Buổi hướng dẫn đơn vị triển lãm ngày 12/2'),
    body: t(
      'Join the online exhibitor briefing at 15:00 (UTC+08:00) for logistics, badges and lead capture.',
      '请于 15:00（UTC+08:00）参加线上参展商说明会，了解物流、证件和潜在客户采集。',
      '15:00（UTC+08:00）からのオンライン出展者説明会で、物流、バッジ、リード獲得についてご案内します。',
      'Tham gia buổi hướng dẫn trực tuyến lúc 15:00 (UTC+08:00) về hậu cần, thẻ và thu thập khách hàng tiềm năng.',
    ),
  },
  {
    kind: 'announcement',
    screen: 'announcements',
    publishedDays: -5,
    title: t('Hotel rates for exhibitors', '参展商酒店优惠价', '出展者向けホテル料金', 'Giá khách sạn dành cho đơn vị triển lãm'),
    body: t(
      'Partner hotels near the venue offer exhibitor rates until the end of next month. Quote the event code **AFHE2027** when booking.',
      '场馆附近的合作酒店为参展商提供优惠价，有效期至下月底。预订时请提供展会代码 **AFHE2027**。',
      '会場近くの提携ホテルが来月末まで出展者料金を提供しています。予約の際は展示会コード **AFHE2027** をお伝えください。',
      'Các khách sạn đối tác gần địa điểm có giá ưu đãi cho đơn vị triển lãm đến cuối tháng sau. Vui lòng cung cấp mã sự kiện **AFHE2027** khi đặt phòng.',
    ),
  },
  {
    kind: 'announcement',
    screen: 'announcements',
    publishedDays: -1,
    title: t('Badge printing starts next week', '证件将于下周开始打印', 'バッジの印刷は来週から', 'Thẻ sẽ bắt đầu được in vào tuần sau'),
    body: t(
      'Check the names on your badge list now: badges are printed exactly as entered.',
      '请立即核对证件名单上的姓名：证件将完全按照所填内容打印。',
      'バッジリストの氏名を今すぐご確認ください。バッジは入力どおりに印刷されます。',
      'Hãy kiểm tra tên trong danh sách thẻ ngay: thẻ được in đúng như đã nhập.',
    ),
  },
  {
    kind: 'faq',
    screen: 'faq',
    category: BADGES,
    position: 1,
    title: t('How many badges do I get?', '我可以获得多少张证件？', 'バッジは何枚もらえますか？', 'Tôi được bao nhiêu thẻ?'),
    body: t(
      'Each booth includes 5 exhibitor badges. Extra badges cost MYR10.00 each and need the organiser’s approval.',
      '每个展位包含 5 张参展商证件。额外证件每张 MYR10.00，需经主办方批准。',
      '各小間に出展者バッジ5枚が含まれます。追加バッジは1枚 MYR10.00 で、主催者の承認が必要です。',
      'Mỗi gian hàng gồm 5 thẻ đơn vị triển lãm. Thẻ thêm giá MYR10.00 mỗi thẻ và cần ban tổ chức phê duyệt.',
    ),
  },
  {
    kind: 'faq',
    screen: 'faq',
    category: BADGES,
    position: 2,
    title: t('Can I change a name after submitting?', '提交后还能修改姓名吗？', '提出後に氏名を変更できますか？', 'Tôi có thể đổi tên sau khi nộp không?'),
    body: t(
      'Yes, until the badge deadline: edit the list and submit it again.',
      '可以，在证件截止日期前修改名单并重新提交即可。',
      'はい。バッジの締め切りまでリストを編集して再提出できます。',
      'Có, trước hạn chót thẻ: sửa danh sách và nộp lại.',
    ),
  },
  {
    kind: 'faq',
    screen: 'faq',
    category: BOOTH,
    position: 3,
    title: t('Who may build my stand?', '谁可以搭建我的展位？', '誰が小間を施工できますか？', 'Ai được thi công gian hàng của tôi?'),
    body: t(
      'A stand builder with a valid safety training green card. Give your builder a contractor login so they can fill the booth contractor part of S03.',
      '持有有效安全培训绿卡的搭建商。请为搭建商开设承包商账号，以便其填写 S03 的承包商部分。',
      '有効な安全講習グリーンカードを持つ施工業者です。施工業者に業者用ログインを発行すると、S03 の施工業者欄を入力できます。',
      'Nhà thầu có thẻ xanh huấn luyện an toàn còn hiệu lực. Hãy cấp cho nhà thầu tài khoản để họ điền phần nhà thầu của S03.',
    ),
  },
  {
    kind: 'faq',
    screen: 'faq',
    category: BOOTH,
    position: 4,
    title: t('How high may my stand be?', '展位最高可以搭多高？', '小間の高さの上限は？', 'Gian hàng được cao tối đa bao nhiêu?'),
    body: t(
      'Up to 2.44 m without approval; higher stands need the organiser’s approval of the design.',
      '不超过 2.44 米无需审批；更高的展位需主办方批准设计。',
      '2.44 m までは承認不要です。それを超える場合はデザインの承認が必要です。',
      'Tối đa 2,44 m không cần phê duyệt; cao hơn cần ban tổ chức duyệt thiết kế.',
    ),
  },
  {
    kind: 'faq',
    screen: 'faq',
    category: LEADS,
    position: 5,
    title: t('How do I capture leads?', '如何采集潜在客户？', 'リードはどう獲得しますか？', 'Làm thế nào để thu thập khách hàng tiềm năng?'),
    body: t(
      'Scan visitor badges with the LeadGrab app; give each colleague a team user login so every scan shows who made it.',
      '使用 LeadGrab 应用扫描观众证件；为每位同事开设团队用户账号，即可看到每次扫描的人员。',
      'LeadGrab アプリで来場者バッジをスキャンします。同僚ごとにチームユーザーを発行すると、誰がスキャンしたか分かります。',
      'Quét thẻ khách tham quan bằng ứng dụng LeadGrab; cấp cho mỗi đồng nghiệp tài khoản thành viên để biết ai đã quét.',
    ),
  },
  {
    kind: 'faq',
    screen: 'faq',
    category: LEADS,
    position: 6,
    title: t('Can I export my leads?', '可以导出潜在客户吗？', 'リードをエクスポートできますか？', 'Tôi có thể xuất danh sách khách hàng tiềm năng không?'),
    body: t(
      'Yes: the lead report exports CSV and Excel files, kept in the data download list.',
      '可以：潜在客户报告可导出 CSV 和 Excel 文件，并保存在数据下载列表中。',
      'はい。リードレポートから CSV と Excel を出力でき、データダウンロード一覧に保存されます。',
      'Có: báo cáo khách hàng tiềm năng xuất tệp CSV và Excel, lưu trong danh sách tải dữ liệu.',
    ),
  },
  {
    kind: 'introduction',
    screen: 'digitalToolsIntroduction',
    title: t('LeadGrab: capture every visitor', 'LeadGrab：不错过每位观众', 'LeadGrab：すべての来場者を記録', 'LeadGrab: ghi nhận mọi khách tham quan'),
    body: t(
      '## How scanning works\n\nEvery visitor badge carries a code. Scan it with the LeadGrab app and the visitor’s profile becomes a lead in your list, even offline.\n\n## Your team\n\nCreate a team user for each colleague on the stand; each has a lead quota you set.\n\n## For integrators\n\nThe scanning API is described in the portal’s OpenAPI document under the `leads` tag.',
      '## 扫描原理\n\n每张观众证件都带有一个代码。用 LeadGrab 应用扫描后，观众资料即成为您列表中的潜在客户，离线也可使用。\n\n## 您的团队\n\n为展位上的每位同事创建团队用户，并为其设定潜在客户配额。\n\n## 面向集成方\n\n扫描 API 见门户 OpenAPI 文档中的 `leads` 标签。',
      '## スキャンの仕組み\n\n来場者バッジにはコードがあります。LeadGrab アプリでスキャンすると、オフラインでも来場者のプロフィールがリードとして一覧に入ります。\n\n## チーム\n\n小間のスタッフごとにチームユーザーを作成し、リードの上限を設定できます。\n\n## 連携開発者の方へ\n\nスキャン API はポータルの OpenAPI ドキュメントの `leads` タグに記載しています。',
      '## Cách quét thẻ\n\nMỗi thẻ khách tham quan có một mã. Quét bằng ứng dụng LeadGrab, hồ sơ khách sẽ thành khách hàng tiềm năng trong danh sách của bạn, kể cả khi ngoại tuyến.\n\n## Đội ngũ của bạn\n\nTạo tài khoản thành viên cho mỗi đồng nghiệp tại gian hàng; mỗi người có hạn mức bạn đặt.\n\n## Dành cho nhà tích hợp\n\nAPI quét thẻ được mô tả trong tài liệu OpenAPI của cổng, mục `leads`.',
    ),
  },
  {
    kind: 'supportContact',
    screen: 'support',
    position: 1,
    title: t('Exhibitor services', '参展商服务', '出展者サービス', 'Dịch vụ đơn vị triển lãm'),
    body: t(
      'Forms, badges, booth questions: exhibitor-support@afhe-expo.example, +60 3 2333 2888 (Mon–Fri 09:00–18:00, UTC+08:00).',
      '表格、证件、展位问题：exhibitor-support@afhe-expo.example，+60 3 2333 2888（周一至周五 09:00–18:00，UTC+08:00）。',
      'フォーム、バッジ、小間について：exhibitor-support@afhe-expo.example、+60 3 2333 2888（月～金 09:00～18:00、UTC+08:00）。',
      'Biểu mẫu, thẻ, gian hàng: exhibitor-support@afhe-expo.example, +60 3 2333 2888 (Thứ Hai–Thứ Sáu 09:00–18:00, UTC+08:00).',
    ),
  },
  {
    kind: 'supportContact',
    screen: 'support',
    position: 2,
    title: t('LeadGrab and technical help', 'LeadGrab 与技术支持', 'LeadGrab・技術サポート', 'LeadGrab và hỗ trợ kỹ thuật'),
    body: t(
      'Scanning app and portal access: leadgrab@afhe-expo.example.',
      '扫描应用与门户登录：leadgrab@afhe-expo.example。',
      'スキャンアプリとポータルへのログイン：leadgrab@afhe-expo.example。',
      'Ứng dụng quét và truy cập cổng: leadgrab@afhe-expo.example.',
    ),
  },
];

const DAY = 24 * 60 * 60 * 1000;

export async function seedDemoContent(db: Kysely<Database>, eventId: number, eventLanguage: string, now: Date): Promise<void> {
  // The attachment's row is made here; its bytes are written once the file store is up (content module).
  const files = new Map((await demoAttachments()).map((file) => [file.id, file]));
  const organiser = await db.selectFrom('users').select('id').where('role', '=', 'organiser').orderBy('id').executeTakeFirstOrThrow();
  for (const item of ITEMS) {
    const file = item.attachment ? files.get(item.attachment.id) : undefined;
    if (file) {
      await db
        .insertInto('uploads')
        .values({
          id: file.id,
          participation_id: null,
          event_id: eventId,
          user_id: organiser.id,
          purpose: MANUAL_ATTACHMENT_PURPOSE,
          original_name: file.name,
          content_type: 'application/pdf',
          size: file.bytes.length,
          dpi: null,
          sha256: createHash('sha256').update(file.bytes).digest('hex'),
        })
        .execute();
    }
    const published = new Date(now.getTime() + (item.publishedDays ?? -10) * DAY);
    const row = await db
      .insertInto('content')
      .values({
        event_id: eventId,
        kind: item.kind,
        screen_id: item.screen,
        title: JSON.stringify(item.title),
        body: JSON.stringify(item.body),
        description: JSON.stringify(item.description ?? {}),
        category: JSON.stringify(item.category ?? {}),
        mandatory: item.mandatory ?? false,
        ack_required: item.ackRequired ?? false,
        deadline: item.deadlineDays === undefined ? null : new Date(now.getTime() + item.deadlineDays * DAY),
        pinned: item.pinned ?? false,
        position: item.position ?? 0,
        published_at: published,
        attachments: JSON.stringify(file ? [{ id: file.id, name: file.name, size: file.bytes.length, type: 'pdf' }] : []),
      })
      .returning(['id'])
      .executeTakeFirstOrThrow();
    await indexContent(db, { id: row.id, title: item.title, body: item.body, description: item.description ?? {}, category: item.category ?? {} }, eventLanguage);
  }
}
