// The stories start page: a button per story, its title and claim.
#include "app/gui/simulator/stories_view.hpp"

#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include "app/gui/simulator/stories.hpp"
#include "app/gui/simulator/story_button.hpp"
#include "core/csv.hpp"

namespace floatscope::gui {

StoriesView::StoriesView(QWidget* parent) : QWidget(parent) {
    auto* heading =
        new QLabel(QStringLiteral("<h2>Stories</h2><p>Each runs a small preset and shows the plot that tells "
                                  "it: in a second or two, the training stories in about ten (Fashion-"
                                  "MNIST subsets, three seeds each, their mean and range). The runs stay "
                                  "in the session (Results, Compare); the Runner holds their settings "
                                  "to change.</p>"),
                   this);
    heading->setWordWrap(true);
    auto* buttons = new QVBoxLayout;
    for (const Story& story : stories()) {
        auto* button =
            new StoryButton(QString::fromStdString(story.title), QString::fromStdString(story.summary), this);
        button->setObjectName(QString::fromStdString(story.name));
        button->setToolTip(QStringLiteral("%1 (--story %2)")
                               .arg(QString::fromStdString(story.setup.workload), QString::fromStdString(story.name)));
        buttons->addWidget(button);
        connect(button, &StoryButton::clicked, this,
                [this, name = QString::fromStdString(story.name)] { emit story_requested(name); });
    }
    // In a scroll area: at 1024x700 the six stories do not fit, and squeezed buttons cut their text.
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->addWidget(heading);
    layout->addLayout(buttons);
    layout->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
}

StoryButton* StoriesView::button(const std::string& name) const {
    return findChild<StoryButton*>(QString::fromStdString(name));
}

std::string StoriesView::csv() const {
    std::string text = core::csv_record({"story", "title", "workload", "policies"}, core::csv_crlf);
    for (const Story& story : stories()) {
        std::string policies;
        for (const PolicyEntry& entry : story.setup.policies) policies += (policies.empty() ? "" : " | ") + entry.text;
        text += core::csv_record({story.name, story.title, story.setup.workload, policies}, core::csv_crlf);
    }
    return text;
}

}  // namespace floatscope::gui
