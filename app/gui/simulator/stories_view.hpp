// StoriesView: the start page of the simulator, one button per story.
#pragma once

#include <QWidget>
#include <string>

namespace floatscope::gui {

class StoryButton;

class StoriesView : public QWidget {
    Q_OBJECT
public:
    explicit StoriesView(QWidget* parent = nullptr);

    /// The button of the story called `name` (stories.hpp), nullptr if none (tests).
    StoryButton* button(const std::string& name) const;
    /// One CSV row per story: name, title, workload, policies.
    std::string csv() const;

signals:
    void story_requested(const QString& name);
};

}  // namespace floatscope::gui
